import type { TradeActorRole } from '../../../db/schema/index.ts';
import type { PersonContext } from '../context.ts';
import { invalidInput } from '../errors.ts';
import { MAX_MESSAGE_LENGTH, messageView, publishMessage, storedMessage, type TradeMessageView } from './chat.ts';
import type { TradesParts } from './deps.ts';
import type { TradeRow } from './repository.ts';

// The trade's chat: reading it, writing a line, and publishing a line the uploads service stored
// (an attachment) as a written one is.

/** The lines after `after` (a message id); moderator-only lines for moderators. */
export async function tradeMessages(
  { repo, readable }: TradesParts,
  ctx: PersonContext,
  { hash, after = 0 }: { hash: string; after?: number },
): Promise<TradeMessageView[]> {
  const { row, role } = await readable(hash, ctx.auth.user.id);
  return (await repo.messagesOf(row.id, after, role === 'moderator', 500)).map(messageView);
}

export async function postMessage(
  { repo, readable, bus, now }: TradesParts,
  ctx: PersonContext,
  { hash, text, isForModerator = false }: { hash: string; text: string; isForModerator?: boolean },
): Promise<TradeMessageView> {
  const userId = ctx.auth.user.id;
  const { row, role } = await readable(hash, userId);
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
  const id = await repo.insertMessage({
    tradeId: row.id,
    authorId: userId,
    authorRole: role,
    body,
    attachmentId: null,
    isForModerator: isForModerator ? 1 : 0,
    at: now(),
  });
  const message = await storedMessage(repo, id);
  publishMessage(bus, row, message, { authorId: userId, authorRole: role, hasAttachment: false, isForModerator });
  return message;
}

/** Publishes a chat line the acting person's upload stored (an attachment) as postMessage does its own. */
export async function publishStored(
  { repo, bus }: TradesParts,
  ctx: PersonContext,
  input: { trade: TradeRow; messageId: number; role: TradeActorRole; isForModerator: boolean },
): Promise<TradeMessageView> {
  const { trade, messageId, role, isForModerator } = input;
  const message = await storedMessage(repo, messageId);
  const line = { authorId: ctx.auth.user.id, authorRole: role, hasAttachment: true, isForModerator };
  publishMessage(bus, trade, message, line);
  return message;
}
