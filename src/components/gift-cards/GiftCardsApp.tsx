import { useMemo } from 'react';
import type { IslandMessages } from '../../lib/shared/i18n/island-messages.ts';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { type Locale, localizePath } from '../../lib/shared/i18n/locales.ts';
import type { GiftCardView } from '../../lib/shared/views/gift-cards.ts';
import { ConfirmDelete } from '../ConfirmDelete.tsx';
import { CardForm } from './CardForm.tsx';
import { CardSummary } from './CardSummary.tsx';
import type { Brand, CurrencyChoice } from './types.ts';
import { useMyCards } from './use-my-cards.ts';

// "My gift cards" (issue 18; spec section 3 "Gift card", section 4 states): the reader's cards with
// their state, the trade holding a card, deleting a free one, and the form to add a card. The
// page renders it with the cards first, so hydration never mismatches.

type Props = {
  locale: Locale;
  lang: string;
  messages: IslandMessages;
  cards: GiftCardView[];
  brands: Brand[];
  currencies: CurrencyChoice[];
  defaultCurrencyId: number;
};

type T = ReturnType<typeof islandTranslator>;

export default function GiftCardsApp(props: Props) {
  const t = useMemo(() => islandTranslator(props.messages), [props.messages]);
  const state = useMyCards(props.cards, t);
  const decimals = useMemo(() => new Map(props.currencies.map((c) => [c.code, c.decimals])), [props.currencies]);
  const choices = useMemo(
    () => ({
      kind: 'free' as const,
      brands: props.brands,
      currencies: props.currencies,
      defaultCurrencyId: props.defaultCurrencyId,
    }),
    [props.brands, props.currencies, props.defaultCurrencyId],
  );
  return (
    <div className="gc-app">
      <section className="card gc-section" aria-labelledby="gc-list-title" data-testid="gift-card-list">
        <h2 className="h3" id="gc-list-title">
          {t('giftCards.list.title')}
        </h2>
        {state.notice && (
          <p
            className={`alert ${state.notice.kind === 'danger' ? 'alert-error' : 'alert-success'}`}
            role={state.notice.kind === 'danger' ? 'alert' : 'status'}
          >
            {state.notice.text}
          </p>
        )}
        {state.cards.length === 0 ? (
          <EmptyState t={t} />
        ) : (
          <ul className="gc-list">
            {state.cards.map((card) => (
              <li key={card.id}>
                <CardSummary
                  t={t}
                  lang={props.lang}
                  card={card}
                  decimals={decimals.get(card.fiatCurrency.code) ?? 2}
                  tradeHref={card.tradeHash ? localizePath(props.locale, `/trade/${card.tradeHash}`) : undefined}
                  actions={card.state === 'free' ? <DeleteControl t={t} card={card} state={state} /> : undefined}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card gc-section" aria-labelledby="gc-add-title">
        <h2 className="h3" id="gc-add-title">
          {t('giftCards.add.title')}
        </h2>
        <p className="muted gc-lead">{t('giftCards.add.lead')}</p>
        <CardForm t={t} choices={choices} onSaved={state.added} submitLabel={t('giftCards.add.submit')} />
      </section>
    </div>
  );
}

function EmptyState({ t }: { t: T }) {
  return (
    <div className="gc-empty" data-testid="gift-cards-empty">
      <p>{t('giftCards.empty.title')}</p>
      <p className="muted">{t('giftCards.empty.text')}</p>
    </div>
  );
}

/** Delete, then "Delete this card?" with the answer buttons in place of it (focus moves to them). */
function DeleteControl({ t, card, state }: { t: T; card: GiftCardView; state: ReturnType<typeof useMyCards> }) {
  return (
    <ConfirmDelete
      id={card.id}
      asking={state.confirming === card.id}
      busy={state.deleting === card.id}
      words={{
        action: t('giftCards.delete.action'),
        confirm: t('giftCards.delete.confirm'),
        yes: t('giftCards.delete.yes'),
        no: t('giftCards.delete.no'),
      }}
      classes={{ button: 'gc-delete', box: 'gc-confirm' }}
      onAsk={() => state.setConfirming(card.id)}
      onCancel={() => state.setConfirming(null)}
      onConfirm={() => void state.remove(card.id)}
    />
  );
}
