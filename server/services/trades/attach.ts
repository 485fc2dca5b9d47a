import { newId } from '../../../db/ids.ts';
import {
  BLOCKED_BY_OPPONENT,
  TRADE_ATTACHMENT_MAX_BYTES,
  TRADE_ATTACHMENT_MAX_FILES,
} from '../../../src/lib/shared/trade-attachments.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { TradeMessageView } from './chat.ts';
import { attachmentTooLarge, type CheckedFile, checked, filesIssue } from './upload-files.ts';
import type { TradeUploadsParts } from './uploads.ts';

/** Refuses a party whose partner blocked them, too few or too many files, and a file too large. */
async function mayAttach(
  { tradesRepo }: TradeUploadsParts,
  ctx: PersonContext,
  trade: { buyerId: number; sellerId: number; role: string },
  files: Uint8Array[],
): Promise<void> {
  if (trade.role !== 'moderator') {
    const opponentId = trade.role === 'buyer' ? trade.sellerId : trade.buyerId;
    if (await tradesRepo.blocked(opponentId, ctx.auth.user.id)) {
      throw new AppError('FORBIDDEN', 'Your trade partner has blocked you: you cannot send them files.', {
        key: 'trade_blocked_by_opponent',
        meta: { reason: BLOCKED_BY_OPPONENT },
      });
    }
  }
  if (files.length === 0) throw filesIssue('Choose a file to send.', 'trade_files_missing');
  if (files.length > TRADE_ATTACHMENT_MAX_FILES) {
    throw filesIssue(`Send at most ${TRADE_ATTACHMENT_MAX_FILES} files at once.`, 'trade_files_too_many', {
      max: TRADE_ATTACHMENT_MAX_FILES,
    });
  }
  if (files.some((file) => file.length > TRADE_ATTACHMENT_MAX_BYTES)) throw attachmentTooLarge();
}

/**
 * Chat attachments (spec section 7: files and is_for_moderator → success and data): each file
 * becomes an attachment and a chat line, published like a message.
 */
export async function attach(
  parts: TradeUploadsParts,
  ctx: PersonContext,
  { hash, files, isForModerator }: { hash: string; files: Uint8Array[]; isForModerator: boolean },
): Promise<TradeMessageView[]> {
  const { repo, trades, files: store, now } = parts;
  const { row, role } = await trades.access(ctx, { hash });
  await mayAttach(parts, ctx, { buyerId: row.buyerId, sellerId: row.sellerId, role }, files);
  // Every file passes before the first is stored (and before any transaction: the checks re-encode
  // images and clean PDFs): a refused request leaves nothing behind.
  const processed: CheckedFile[] = [];
  for (const file of files) processed.push(await checked(file));
  const names: string[] = [];
  let messageIds: number[];
  try {
    for (const file of processed) names.push(await store.store(file.contentType, file.bytes));
    const at = now();
    messageIds = await immediate(repo.db, async (tx) => {
      const ids: number[] = [];
      for (const [i, file] of processed.entries()) {
        const attachmentId = await repo.insertAttachment({
          publicId: newId('att'),
          tradeId: row.id,
          uploaderId: ctx.auth.user.id,
          storageName: names[i] as string,
          contentType: file.contentType,
          sizeBytes: file.bytes.length,
          isForModerator: isForModerator ? 1 : 0,
          at,
        });
        ids.push(
          await repo.insertAttachmentMessage({
            tradeId: row.id,
            authorId: ctx.auth.user.id,
            authorRole: role,
            attachmentId,
            isForModerator: isForModerator ? 1 : 0,
            at,
          }),
        );
      }
      await trades.recordStored(ctx, { tx, trade: row, messageIds: ids, isForModerator });
      return ids;
    });
  } catch (error) {
    await Promise.all(names.map(store.remove));
    throw error;
  }
  const messages: TradeMessageView[] = [];
  for (const messageId of messageIds) {
    messages.push(await trades.publishStored(ctx, { trade: row, messageId, role, isForModerator }));
  }
  return messages;
}
