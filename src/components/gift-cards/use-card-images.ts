import { useRef, useState } from 'react';
import { GIFT_CARD_MAX_IMAGES } from '../../lib/shared/views/gift-cards.ts';
import { fileProblem, uploadImage } from './upload-image.ts';

// The pictures of the card being added: each file uploaded on its own as soon as it is picked,
// with its progress or its error, and removable until the card is saved.

export interface PendingImage {
  /** Local key: the upload has no id until the server answers. */
  key: number;
  name: string;
  status: 'uploading' | 'done' | 'failed';
  progress: number;
  /** `gci_…` once uploaded. */
  id?: string;
  url?: string;
  error?: string;
}

type T = (key: string, params?: Record<string, string | number>) => string;

export function useCardImages(t: T) {
  const [images, setImages] = useState<PendingImage[]>([]);
  const nextKey = useRef(1);
  const update = (key: number, change: Partial<PendingImage>) =>
    setImages((list) => list.map((image) => (image.key === key ? { ...image, ...change } : image)));

  const add = (files: FileList | null) => {
    const room = GIFT_CARD_MAX_IMAGES - images.length;
    for (const file of Array.from(files ?? []).slice(0, Math.max(0, room))) {
      const key = nextKey.current++;
      const problem = fileProblem(file);
      const image: PendingImage = { key, name: file.name, status: problem ? 'failed' : 'uploading', progress: 0 };
      if (problem) image.error = t(`giftCards.images.${problem}`);
      setImages((list) => [...list, image]);
      if (problem) continue;
      void uploadImage(file, (progress) => update(key, { progress })).then((result) => {
        if (result.ok) update(key, { status: 'done', progress: 100, id: result.image.id, url: result.image.url });
        else update(key, { status: 'failed', error: result.message || t('giftCards.images.failed') });
      });
    }
  };
  const remove = (key: number) => setImages((list) => list.filter((image) => image.key !== key));
  const clear = () => setImages([]);

  return {
    images,
    add,
    remove,
    clear,
    uploading: images.some((image) => image.status === 'uploading'),
    full: images.length >= GIFT_CARD_MAX_IMAGES,
    ids: images.flatMap((image) => (image.status === 'done' && image.id ? [image.id] : [])),
  };
}
