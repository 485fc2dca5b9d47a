import { useId, useState } from 'react';
import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { toMinorUnits } from '../../lib/shared/money.ts';
import type { GiftCardView } from '../../lib/shared/views/gift-cards.ts';
import { useModalDialog } from '../../lib/use-modal-dialog.ts';
import { totalMinor } from './gift-card-start.ts';

// The "gift cards choose" modal (spec section 2, start-trade decision 1): the person's free cards
// of the offer's brand and currency with checkboxes and their running total against the amount.
// Cards that make it up exactly start the trade; any other choice goes on to the gift-code trade
// page, where more cards are added.

type T = ReturnType<typeof islandTranslator>;

export interface GiftCardsModalProps {
  t: T;
  cards: readonly GiftCardView[];
  /** The amount typed in the widget, as text. */
  fiat: string;
  fiatDecimals: number;
  method: string;
  fiatText(value: number): string;
  /** "My gift cards", where a new card is saved. */
  giftCardsHref: string;
  onCancel(): void;
  onConfirm(chosen: ReadonlySet<string>): void;
}

/** How the chosen total stands against the amount: its words and its colour. */
function totalState(chosenMinor: number, amountMinor: number): 'none' | 'exact' | 'short' | 'over' {
  if (chosenMinor === 0) return 'none';
  if (chosenMinor === amountMinor) return 'exact';
  return chosenMinor < amountMinor ? 'short' : 'over';
}

/** The running total against the amount, and what the choice does. */
function TotalLine({
  t,
  chosenMinor,
  amountMinor,
  factor,
  fiatText,
}: {
  t: T;
  chosenMinor: number;
  amountMinor: number;
  factor: number;
  fiatText(value: number): string;
}) {
  const state = totalState(chosenMinor, amountMinor);
  const amount = fiatText(amountMinor / factor);
  return (
    <p className="gift-choose-total" data-total-state={state} role="status">
      <span>{t('offer.giftCards.total', { total: fiatText(chosenMinor / factor), amount })}</span>
      {state !== 'none' && (
        <span className="gift-choose-hint">
          {state === 'exact'
            ? t('offer.giftCards.exact')
            : t(state === 'short' ? 'offer.giftCards.short' : 'offer.giftCards.over', {
                amount: fiatText(Math.abs(amountMinor - chosenMinor) / factor),
              })}
        </span>
      )}
    </p>
  );
}

export function GiftCardsModal(props: GiftCardsModalProps) {
  const { t, cards, fiatDecimals, fiatText } = props;
  const dialog = useModalDialog();
  const titleId = useId();
  const textId = useId();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const factor = 10 ** fiatDecimals;
  const amountMinor = toMinorUnits(props.fiat, fiatDecimals) ?? 0;
  const chosenMinor = totalMinor(cards, chosen, fiatDecimals);
  const exact = totalState(chosenMinor, amountMinor) === 'exact';
  const amount = fiatText(amountMinor / factor);

  const toggle = (id: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <dialog
      ref={dialog}
      className="offer-modal gift-choose"
      aria-labelledby={titleId}
      aria-describedby={textId}
      data-step="choose_gift_cards"
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id={titleId} className="h3">
        {t('offer.giftCards.title')}
      </h2>
      <p id={textId}>{t('offer.giftCards.text', { method: props.method, amount })}</p>
      <fieldset className="gift-choose-list">
        <legend className="field-label">{t('offer.giftCards.legend', { method: props.method })}</legend>
        {cards.map((card) => (
          <label key={card.id} className="gift-choose-card" data-card={card.id}>
            <input type="checkbox" checked={chosen.has(card.id)} onChange={() => toggle(card.id)} />
            <span className="gift-choose-value">{fiatText(card.value)}</span>
            <span className="gift-choose-meta muted">
              {t(`offer.giftCards.kind.${card.type}`)} ·{' '}
              {t(card.receipt ? 'offer.giftCards.withReceipt' : 'offer.giftCards.noReceipt')}
            </span>
          </label>
        ))}
      </fieldset>
      <TotalLine t={t} chosenMinor={chosenMinor} amountMinor={amountMinor} factor={factor} fiatText={fiatText} />
      <p className="muted gift-choose-save">
        <a className="text-link" href={props.giftCardsHref}>
          {t('offer.giftCards.saveNew')}
        </a>
      </p>
      <div className="offer-modal-actions">
        <button
          type="button"
          className="btn btn-primary"
          data-gift-confirm={exact ? 'start' : 'continue'}
          onClick={() => props.onConfirm(chosen)}
        >
          {t(exact ? 'offer.giftCards.start' : 'offer.giftCards.continue')}
        </button>
        <button type="button" className="btn btn-secondary" onClick={props.onCancel}>
          {t('offer.warning.cancel')}
        </button>
      </div>
    </dialog>
  );
}
