import { createHash, randomBytes } from 'node:crypto';
import type { EventBus } from '../../realtime/bus.ts';
import { personalChannel } from '../../realtime/channels.ts';
import { immediate, type PersonContext, type ServiceContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { TelegramRepository } from './repository.ts';

// Telegram notifications (spec sections 4 and 7): subscribing hands out a bot link carrying a
// random token; when the person presses Start in that chat, the bot reports (token, chat id) and
// the chat is linked to whoever holds the token. The page learns it on `telegram:<usr_…>`.

export type TelegramStatus = 'subscribed' | 'unsubscribed';

/** Telegram's deep-link payload allows 1-64 characters of A-Z a-z 0-9 _ -. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Chat ids are integers (negative for groups), at most 52 bits. */
const CHAT_ID_PATTERN = /^-?\d{1,20}$/;

/** Stored as a SHA-256, like session tokens: a copy of the database cannot claim a chat. */
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function telegramSubscriptionUrl(botName: string, token: string): string {
  return `https://t.me/${botName}?start=${token}`;
}

export interface TelegramLinked {
  userPublicId: string;
  username: string;
  email: string;
}

export function createTelegramService({
  repo,
  bus,
  botName,
  now,
}: {
  repo: TelegramRepository;
  bus: EventBus;
  botName: string;
  now: () => number;
}) {
  const announce = (userPublicId: string, status: TelegramStatus) =>
    bus.publish(personalChannel('telegram', userPublicId), { type: 'telegram_status', payload: { status } });

  return {
    /** A fresh link each time; an earlier, unused link stops working. A linked chat stays linked. */
    async subscribe(ctx: PersonContext): Promise<{ subscriptionUrl: string }> {
      const token = randomBytes(32).toString('base64url');
      await repo.setLinkToken(ctx.auth.user.id, hashToken(token), now());
      return { subscriptionUrl: telegramSubscriptionUrl(botName, token) };
    },

    async unsubscribe(ctx: PersonContext): Promise<void> {
      const { user } = ctx.auth;
      await repo.clear(user.id, now());
      announce(user.publicId, 'unsubscribed');
    },

    /** The Start of the chat the link opened: links the chat, then tells the person's pages. */
    async link(_ctx: ServiceContext, { token, chatId }: { token: string; chatId: string }): Promise<TelegramLinked> {
      if (!CHAT_ID_PATTERN.test(chatId)) {
        throw new AppError('ERROR_INPUT_VALIDATION', 'A Telegram chat id is a whole number.', { field: 'chatId' });
      }
      const tokenHash = TOKEN_PATTERN.test(token) ? hashToken(token) : '';
      const linked = await immediate(repo.db, async () => {
        const owner = tokenHash ? await repo.ownerOfToken(tokenHash) : undefined;
        return owner && (await repo.link(tokenHash, chatId, now())) ? owner : undefined;
      });
      if (!linked) {
        throw new AppError('TOKEN_INVALID', 'This Telegram link is invalid or was used already. Subscribe again.');
      }
      // After the commit, as every publisher does (ARCHITECTURE.md, "Realtime").
      announce(linked.publicId, 'subscribed');
      return { userPublicId: linked.publicId, username: linked.username, email: linked.email };
    },
  };
}

export type TelegramService = ReturnType<typeof createTelegramService>;
