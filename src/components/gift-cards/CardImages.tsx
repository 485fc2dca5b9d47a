import { GIFT_CARD_MAX_IMAGES } from '../../lib/shared/views/gift-cards.ts';
import { IMAGE_ACCEPT } from './upload-image.ts';
import type { useCardImages } from './use-card-images.ts';

// The pictures part of the card form: a file picker (front, back, receipt; up to four), then one
// line per file with its upload progress or error and a button to take it off before saving.

type T = (key: string, params?: Record<string, string | number>) => string;

export function CardImages({
  t,
  id,
  state,
  error,
}: {
  t: T;
  id: string;
  state: ReturnType<typeof useCardImages>;
  error: string | undefined;
}) {
  return (
    <div className="field gc-images">
      <span className="field-label" id={`${id}-label`}>
        {t('giftCards.field.images')}
      </span>
      <p className="field-hint" id={`${id}-hint`}>
        {t('giftCards.images.hint', { max: GIFT_CARD_MAX_IMAGES })}
      </p>
      {state.images.length > 0 && (
        <ul className="gc-uploads" aria-labelledby={`${id}-label`}>
          {state.images.map((image) => (
            <li key={image.key} className={`gc-upload gc-upload-${image.status}`}>
              <span className="gc-upload-name" dir="auto">
                {image.name}
              </span>
              {image.status === 'uploading' && (
                <progress
                  max={100}
                  value={image.progress}
                  aria-label={t('giftCards.images.uploading', { name: image.name })}
                />
              )}
              {image.status === 'done' && <span className="gc-upload-state">{t('giftCards.images.done')}</span>}
              {image.status === 'failed' && (
                <span className="gc-upload-state field-error" role="alert">
                  {image.error}
                </span>
              )}
              <button
                type="button"
                className="text-link"
                onClick={() => state.remove(image.key)}
                aria-label={t('giftCards.images.removeNamed', { name: image.name })}
              >
                {t('giftCards.images.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {!state.full && (
        <label className="btn btn-secondary gc-pick">
          {t('giftCards.images.add')}
          <input
            id={id}
            type="file"
            multiple
            className="visually-hidden"
            accept={IMAGE_ACCEPT}
            aria-describedby={`${id}-hint ${id}-error`}
            onChange={(e) => {
              state.add(e.target.files);
              // The same file may be picked again after removing it.
              e.target.value = '';
            }}
          />
        </label>
      )}
      <p className="field-error" id={`${id}-error`}>
        {error}
      </p>
    </div>
  );
}
