import { systemContext } from '../context.ts';
import type { TelegramLinked, TelegramService } from './telegram.ts';

// The bot as the server sees it. A real adapter receives Telegram's updates (webhook or long
// polling), calls `handleStart` for a `/start <token>` message and sends through the Bot API.
// Until it exists, the offline adapter is the default: no network, messages kept in memory and
// logged, and the operator command `telegram:start` stands in for the person pressing Start.

export interface TelegramBot {
  readonly mode: 'offline';
  /** A person pressed Start in the chat a subscription link opened. */
  handleStart(token: string, chatId: string): Promise<TelegramLinked>;
  sendMessage(chatId: string, text: string): Promise<void>;
}

const KEEP_SENT = 100;

export interface SentTelegramMessage {
  chatId: string;
  text: string;
}

export function createOfflineTelegramBot({
  telegram,
  log,
}: {
  telegram: Pick<TelegramService, 'link'>;
  log: (message: string) => void;
}): TelegramBot & { sent: SentTelegramMessage[] } {
  const sent: SentTelegramMessage[] = [];
  const bot = {
    mode: 'offline' as const,
    sent,
    async handleStart(token: string, chatId: string) {
      const linked = await telegram.link(systemContext('telegram-bot'), { token, chatId });
      await bot.sendMessage(chatId, `Hello ${linked.username}! Coinfair will notify you here about your trades.`);
      return linked;
    },
    async sendMessage(chatId: string, text: string) {
      // The latest few only: a long-running offline server must not grow without end.
      if (sent.push({ chatId, text }) > KEEP_SENT) sent.shift();
      log(`telegram (offline) to chat ${chatId}: ${text}`);
    },
  };
  return bot;
}
