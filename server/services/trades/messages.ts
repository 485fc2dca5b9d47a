import type { TradeActorRole } from '../../../db/schema/index.ts';
import type { PersonContext } from '../context.ts';
import { invalidInput } from '../errors.ts';
import { MAX_MESSAGE_LENGTH, messageView, publishMessage, storedMessage, type TradeMessageView } from './chat.ts';
import type { TradesParts } from './deps.ts';
import type { TradeRow } from './repository.ts';

// The trade's chat: reading it, writing a line, and publishing a line the uploads service stored
// (an attachment) as a written one is.

/** The lines after `after` (a message id); moderator-only lines for moderators. */
export function tradeMessages(
  { repo, readable }: TradesParts,
  ctx: PersonContext,
  { hash, after = 0 }: { hash: string; after?: number },
): TradeMessageView[] {
  const { row, role } = readable(hash, ctx.auth.user.id);
  return repo.messagesOf(row.id, after, role === 'moderator', 500).map(messageView);
}

export function postMessage(
  { repo, readable, bus, now }: TradesParts,
  ctx: PersonContext,
  { hash, text, isForModerator = false }: { hash: string; text: string; isForModerator?: boolean },
): TradeMessageView {
  const userId = ctx.auth.user.id;
  const { row, role } = readable(hash, userId);
  const body = text.trim();
  if (body.length === 0 || body.length > MAX_MESSAGE_LENGTH) {
    throw invalidInput([
      {
        field: 'text',
        message: `Write 1 to ${MAX_MESSAGE_LENGTH} characters.`,
        key: 'trade_message_length',
        params: { max: MAX_MESSAGE_LENGTH },
      },
    ]);
  }
  const id = repo.insertMessage({
    tradeId: row.id,
    authorId: userId,
    authorRole: role,
    body,
    attachmentId: null,
    isForModerator: isForModerator ? 1 : 0,
    at: now(),
  });
  const message = storedMessage(repo, id);
  publishMessage(bus, row, message, { authorId: userId, authorRole: role, hasAttachment: false, isForModerator });
  return message;
}

/** Publishes a chat line the acting person's upload stored (an attachment) as postMessage does its own. */
export function publishStored(
  { repo, bus }: TradesParts,
  ctx: PersonContext,
  input: { trade: TradeRow; messageId: number; role: TradeActorRole; isForModerator: boolean },
): TradeMessageView {
  const { trade, messageId, role, isForModerator } = input;
  const message = storedMessage(repo, messageId);
  const line = { authorId: ctx.auth.user.id, authorRole: role, hasAttachment: true, isForModerator };
  publishMessage(bus, trade, message, line);
  return message;
}
