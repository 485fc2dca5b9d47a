import { type ApiResult, apiPost } from '../../lib/api-client.ts';
import { BLOCKED_BY_OPPONENT } from '../../lib/shared/trade-attachments.ts';
import type { TradeMessageView } from './trade-logic.ts';
import type { T } from './ui.tsx';

// Sending files into a trade (the chat attachment URL, spec section 7) and what a failure says
// (spec section 8: the reason blocked_by_opponent, otherwise an upload error).

export function sendFiles(hash: string, files: readonly File[], isForModerator: boolean) {
  const body = new FormData();
  for (const file of files) body.append('files', file);
  body.append('is_for_moderator', isForModerator ? '1' : '0');
  return apiPost<TradeMessageView[]>(`/rest/v1/trade/${hash}/attachments`, body);
}

export function uploadError(result: ApiResult<unknown>, t: T): string {
  if (result.meta?.reason === BLOCKED_BY_OPPONENT) return t('trade.upload.blocked');
  const message = result.status >= 400 && result.status < 500 ? result.errors[0]?.message : undefined;
  return message || t('trade.upload.failed');
}
