import type { TradeActorRole } from '../../../db/schema/index.ts';
import type { TradeMessageView } from '../../../src/lib/shared/views/trades.ts';
import type { EventBus } from '../../realtime/bus.ts';
import { tradeChannel } from '../../realtime/channels.ts';
import { invalidInput } from '../errors.ts';
import type { TradeMessagePayload } from '../notifications/trade-events.ts';
import type { ChatLine } from '../webhooks/recorder.ts';
import { TRADES_CHANNEL } from './events.ts';
import type { MessageRow, TradeRow, TradesRepository } from './repository.ts';

// The chat's lines: how a stored line reads, the status lines transitions write, and how a new
// line is published. The verbs that read and write the chat are in messages.ts.

export const MAX_MESSAGE_LENGTH = 2000;

export type { TradeMessageView };

/** `text` trimmed; ERROR_INPUT_VALIDATION on `field` when nothing or more than `max` characters is left. */
export function trimmedText(field: string, text: string, max: number): string {
  const body = text.trim();
  if (body.length === 0 || body.length > max) {
    throw invalidInput([
      { field, message: `Write 1 to ${max} characters.`, key: 'trade_message_length', params: { max } },
    ]);
  }
  return body;
}

export function messageView(row: MessageRow): TradeMessageView {
  return {
    id: row.id,
    author: row.authorUsername,
    role: row.authorRole,
    text: row.body,
    isSystem: row.authorRole === 'system',
    attachment:
      row.attachmentPublicId === null
        ? null
        : {
            id: row.attachmentPublicId,
            url: `/uploads/trades/${row.attachmentPublicId}`,
            contentType: row.attachmentContentType ?? 'application/octet-stream',
          },
    isForModerator: row.isForModerator === 1,
    createdAt: Math.floor(row.createdAt / 1000),
  };
}

/** A stored line as the chat shows it. */
export const storedMessage = async (repo: TradesRepository, id: number): Promise<TradeMessageView> =>
  messageView((await repo.messageById(id)) as MessageRow);

/** A status line in the chat, stored as a message key the page renders in its reader's language. */
export const systemLine = (
  repo: Pick<TradesRepository, 'insertMessage'>,
  tradeId: number,
  key: string,
  at: number,
): Promise<number> =>
  repo.insertMessage({
    tradeId,
    authorId: null,
    authorRole: 'system',
    body: key,
    attachmentId: null,
    isForModerator: 0,
    at,
  });

/** A stored line as the webhooks of the parties who did not write it describe it. */
export const webhookLine = (row: TradeRow, message: TradeMessageView, authorId: number): ChatLine => ({
  tradeHash: row.hash,
  buyerId: row.buyerId,
  sellerId: row.sellerId,
  authorId,
  author: message.author ?? '',
  authorRole: message.role,
  messageId: message.id,
  text: message.text ?? '',
  attachment: message.attachment ? { id: message.attachment.id, contentType: message.attachment.contentType } : null,
  at: message.createdAt * 1000,
});

export interface PublishedLine {
  authorId: number;
  authorRole: TradeActorRole;
  hasAttachment: boolean;
  isForModerator: boolean;
}

/** A new line on the trade's channel (the page) and as `trade.message` for notifications. */
export function publishMessage(bus: EventBus, row: TradeRow, message: TradeMessageView, line: PublishedLine): void {
  const { authorId, authorRole, hasAttachment, isForModerator } = line;
  // Moderator-only lines stay off the parties' channel; moderators read them through the API.
  if (!isForModerator) bus.publish(tradeChannel(row.hash), { type: 'message', payload: message });
  const recipientIds = [row.buyerId, row.sellerId].filter((id) => id !== authorId);
  bus.publish(TRADES_CHANNEL, {
    type: 'trade.message',
    payload: {
      tradeHash: row.hash,
      messageId: message.id,
      authorId,
      authorRole,
      recipientIds: isForModerator ? [] : recipientIds,
      hasAttachment,
      isForModerator,
      link: `/trade/${row.hash}`,
      at: message.createdAt * 1000,
    } satisfies TradeMessagePayload,
  });
}
