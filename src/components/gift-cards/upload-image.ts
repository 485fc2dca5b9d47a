import { csrfToken } from '../../lib/api-client.ts';
import { TRADE_ATTACHMENT_MAX_BYTES } from '../../lib/shared/trade-attachments.ts';
import type { GiftCardImageView } from '../../lib/shared/views/gift-cards.ts';

// One picture of a card, sent to POST /rest/v1/gift-cards/images (multipart field `file`) before
// the card is saved. XMLHttpRequest rather than fetch: only it reports upload progress.

export const IMAGE_ACCEPT = 'image/jpeg,image/png,application/pdf,.jpg,.jpeg,.png,.pdf';
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'application/pdf'];

/** Why the browser refuses a file before sending it (the server decides by the bytes anyway). */
export function fileProblem(file: File): 'type' | 'size' | undefined {
  if (file.type && !IMAGE_TYPES.includes(file.type)) return 'type';
  if (file.size > TRADE_ATTACHMENT_MAX_BYTES) return 'size';
  return undefined;
}

export type UploadResult = { ok: true; image: GiftCardImageView } | { ok: false; message: string };

export function uploadImage(file: File, onProgress: (percent: number) => void): Promise<UploadResult> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/rest/v1/gift-cards/images');
    request.setRequestHeader('Accept', 'application/json');
    request.setRequestHeader('X-CSRF-Token', csrfToken());
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => {
      let body: { data?: GiftCardImageView; errors?: { message?: string }[] } = {};
      try {
        body = JSON.parse(request.responseText) as typeof body;
      } catch {
        // An answer that is not JSON (a proxy's error page) is a failure without a message.
      }
      if (request.status === 201 && body.data) resolve({ ok: true, image: body.data });
      else resolve({ ok: false, message: body.errors?.[0]?.message ?? '' });
    };
    request.onerror = () => resolve({ ok: false, message: '' });
    const form = new FormData();
    form.append('file', file);
    request.send(form);
  });
}
