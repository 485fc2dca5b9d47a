import type { TradeActorRole } from '../../../db/schema/index.ts';
import { immediate, type PersonContext, type Transaction } from '../context.ts';
import {
  MAX_MESSAGE_LENGTH,
  messageView,
  publishMessage,
  storedMessage,
  type TradeMessageView,
  trimmedText,
  webhookLine,
} from './chat.ts';
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
  { repo, readable, bus, now, webhooks }: TradesParts,
  ctx: PersonContext,
  { hash, text, isForModerator = false }: { hash: string; text: string; isForModerator?: boolean },
): Promise<TradeMessageView> {
  const userId = ctx.auth.user.id;
  const { row, role } = await readable(hash, userId);
  const body = trimmedText('text', text, MAX_MESSAGE_LENGTH);
  // The line and its webhook deliveries (none for a moderators-only line) in one transaction.
  const message = await immediate(repo.db, async (tx) => {
    const id = await repo.insertMessage({
      tradeId: row.id,
      authorId: userId,
      authorRole: role,
      body,
      attachmentId: null,
      isForModerator: isForModerator ? 1 : 0,
      at: now(),
    });
    const stored = await storedMessage(repo, id);
    if (!isForModerator) await webhooks?.chatLine(tx, webhookLine(row, stored, userId));
    return stored;
  });
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

/**
 * Inside the uploads service's transaction that stored attachment lines: their webhook deliveries
 * (none for moderators-only lines), so they exist exactly when the lines do.
 */
export async function recordStored(
  { repo, webhooks }: TradesParts,
  ctx: PersonContext,
  input: { tx: Transaction; trade: TradeRow; messageIds: number[]; isForModerator: boolean },
): Promise<void> {
  if (!webhooks || input.isForModerator) return;
  for (const id of input.messageIds)
    await webhooks.chatLine(input.tx, webhookLine(input.trade, await storedMessage(repo, id), ctx.auth.user.id));
}
