import type { DatabaseLike } from '../../db/database.ts';
import { DEFAULT_TELEGRAM_BOT_NAME } from '../config.ts';
import { createInProcessBus, type EventBus } from '../realtime/bus.ts';
import { AppError } from '../services/errors.ts';
import { createOfflineTelegramBot } from '../services/telegram/bot.ts';
import { createTelegramRepository } from '../services/telegram/repository.ts';
import { createTelegramService } from '../services/telegram/telegram.ts';
import { CommandError } from './user-commands.ts';

// `npm run admin -- telegram:start <token> <chatId>`: the offline bot's stand-in for a person
// pressing Start in the chat a subscription link opened. It links the chat through the same
// service a real bot's webhook will call.
//
// This runs in its own process, so its live event reaches no browser: the server's hub listens
// on the server's bus. The page shows the new state when it next loads the settings.

export function telegramCommands(
  db: DatabaseLike,
  { now = Date.now, bus }: { now?: () => number; bus?: EventBus } = {},
) {
  const telegram = createTelegramService({
    repo: createTelegramRepository(db),
    bus: bus ?? createInProcessBus(),
    // The bot's name only shapes subscription links, which this command never hands out.
    botName: DEFAULT_TELEGRAM_BOT_NAME,
    now,
  });
  const bot = createOfflineTelegramBot({ telegram, log: () => {} });

  return {
    async start(token: string, chatId: string): Promise<string> {
      try {
        const linked = await bot.handleStart(token, chatId);
        return `Telegram chat ${chatId} linked to ${linked.email} (${linked.username}).`;
      } catch (error) {
        if (error instanceof AppError) throw new CommandError(error.message);
        throw error;
      }
    },
  };
}
