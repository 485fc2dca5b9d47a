import { useId, useState } from 'react';
import { tIsolated } from '../../lib/isolated.tsx';
import type { GiftCardView } from '../../lib/shared/views/gift-cards.ts';
import type { T } from './ui.tsx';

// The buyer's saved free cards of the trade's brand and currency, to add before marking paid,
// and the way to "My gift cards" to save a new one.

export function GiftCardsAdd({
  t,
  free,
  brand,
  currency,
  fiatText,
  giftCardsHref,
  busy,
  onAdd,
}: {
  t: T;
  /** Null while loading. */
  free: GiftCardView[] | null;
  brand: string;
  currency: string;
  fiatText(value: number): string;
  giftCardsHref: string;
  busy: boolean;
  onAdd(ids: readonly string[]): Promise<boolean>;
}) {
  const titleId = useId();
  const [chosen, setChosen] = useState<string[]>([]);
  const toggle = (id: string) =>
    setChosen((current) => (current.includes(id) ? current.filter((c) => c !== id) : [...current, id]));
  const add = async () => {
    if (await onAdd(chosen)) setChosen([]);
  };

  return (
    <section className="gift-add" aria-labelledby={titleId}>
      <h3 id={titleId} className="trade-subtitle">
        {t('trade.giftCards.addTitle')}
      </h3>
      {free === null ? (
        <p className="muted">{t('trade.giftCards.loading')}</p>
      ) : free.length === 0 ? (
        <p className="muted">{tIsolated(t, 'trade.giftCards.noFree', { brand, currency })}</p>
      ) : (
        <>
          <ul className="gift-add-list">
            {free.map((card) => (
              <li key={card.id}>
                <label className="gift-add-card" data-free-card={card.id}>
                  <input type="checkbox" checked={chosen.includes(card.id)} onChange={() => toggle(card.id)} />
                  <bdi>{fiatText(card.value)}</bdi>
                  <span className="muted">{t(`trade.giftCards.kind.${card.type}`)}</span>
                </label>
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => void add()}
            disabled={busy || chosen.length === 0}
            data-add-cards
          >
            {busy ? t('trade.action.working') : t('trade.giftCards.add')}
          </button>
        </>
      )}
      <p className="gift-add-save">
        <a className="text-link" href={giftCardsHref}>
          {t('trade.giftCards.saveNew')}
        </a>
      </p>
    </section>
  );
}
