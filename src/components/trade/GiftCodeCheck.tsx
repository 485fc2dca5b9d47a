import { useId, useState } from 'react';
import { tIsolated } from '../../lib/isolated.tsx';
import { formatFiat } from '../../lib/shared/format.ts';
import type { GiftCodeCheckView } from '../../lib/shared/views/gift-cards.ts';
import { GiftCardItem } from './GiftCardItem.tsx';
import { GiftCardsAdd } from './GiftCardsAdd.tsx';
import type { TradeView } from './trade-logic.ts';
import { ConfirmDialog, type T } from './ui.tsx';
import { type GiftCodeCheckState, useGiftCodeCheck } from './use-gift-code-check.ts';

// The gift code check of a gift-card trade (spec sections 2 and 3): the trade's amount, currency
// and brand with what is wrong with the cards, the cards themselves and, by role: the buyer
// removes a card the seller has not opened and adds saved ones before marking paid; the seller
// opens each code once the buyer marked paid, then releases (or disputes) with the trade's own
// buttons, or gives the cards back, which cancels the trade; a moderator in a dispute opens codes.

export interface GiftCodeCheckProps {
  trade: TradeView;
  initial: GiftCodeCheckView;
  t: T;
  lang: string;
  prefix: string;
  /** Bumped when the trade's cards may have changed (use-trade-data.ts). */
  tick: number;
  onTrade(trade: TradeView): void;
}

/** One fact of the check, its value in a <bdi>: amounts and brands keep their order in Hebrew (decision 132). */
function Fact({ label, cardsTotal, children }: { label: string; cardsTotal?: boolean; children: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-cards-total={cardsTotal || undefined}>
        <bdi>{children}</bdi>
      </dd>
    </div>
  );
}

export function GiftCodeCheck(props: GiftCodeCheckProps) {
  const { trade, t, lang } = props;
  const titleId = useId();
  const state = useGiftCodeCheck(trade.hash, props.initial, {
    t,
    version: trade.version,
    tick: props.tick,
    onTrade: props.onTrade,
  });
  const { check } = state;
  const { tradeInfo } = check;
  const fiatText = (value: number) => formatFiat(value, tradeInfo.currency.code, lang, trade.fiatDecimals);

  return (
    <section className="card gift-check" aria-labelledby={titleId} data-gift-check={check.role}>
      <h2 id={titleId} className="h4">
        {t('trade.giftCards.title')}
      </h2>
      <p className="muted">
        {tIsolated(t, `trade.giftCards.intro.${check.role}`, { brand: tradeInfo.paymentMethod.name })}
      </p>
      <dl className="trade-facts gift-check-facts">
        <Fact label={t('trade.giftCards.amount')}>{fiatText(tradeInfo.amount)}</Fact>
        <Fact label={t('trade.giftCards.brand')}>{tradeInfo.paymentMethod.name}</Fact>
        <Fact label={t('trade.giftCards.currency')}>{tradeInfo.currency.code}</Fact>
        <Fact label={t('trade.giftCards.cardsTotal')} cardsTotal>
          {fiatText(check.cardsTotal)}
        </Fact>
      </dl>
      {tradeInfo.error && (
        <p className="alert alert-error" data-gift-error={tradeInfo.error}>
          {tIsolated(t, `trade.giftCards.error.${tradeInfo.error}`, { total: fiatText(check.cardsTotal) })}
        </p>
      )}
      <ul className="gift-card-list">
        {check.cards.map((card, index) => (
          <GiftCardItem
            key={card.id}
            card={card}
            index={index}
            role={check.role}
            t={t}
            fiatText={fiatText}
            canReveal={check.can.reveal}
            canRemove={check.can.remove}
            busy={state.busy}
            onReveal={(id) => void state.reveal(id)}
            onRemove={state.askRemove}
          />
        ))}
      </ul>
      {check.can.add && (
        <GiftCardsAdd
          t={t}
          free={state.free}
          brand={tradeInfo.paymentMethod.name}
          currency={tradeInfo.currency.code}
          fiatText={fiatText}
          giftCardsHref={`${props.prefix}/gift-cards`}
          busy={state.busy === 'add'}
          onAdd={state.add}
        />
      )}
      <Notice state={state} />
      {check.can.returnCards && <GiveBack t={t} state={state} />}
      {state.cardForRemove && <RemoveDialog t={t} state={state} fiatText={fiatText} />}
    </section>
  );
}

function Notice({ state }: { state: GiftCodeCheckState }) {
  const { notice } = state;
  if (!notice) return null;
  return (
    <p
      className={`alert ${notice.kind === 'error' ? 'alert-error' : 'alert-success'}`}
      role={notice.kind === 'error' ? 'alert' : 'status'}
      data-gift-notice={notice.kind}
    >
      {notice.text}
    </p>
  );
}

/** "Give the cards back": the seller states no code was redeemed, and the trade is cancelled. */
function GiveBack({ t, state }: { t: T; state: GiftCodeCheckState }) {
  const [asking, setAsking] = useState(false);
  const busy = state.busy === 'return';
  return (
    <div className="gift-check-return">
      <button type="button" className="btn btn-secondary" onClick={() => setAsking(true)} data-return-cards>
        {t('trade.giftCards.return')}
      </button>
      {asking && (
        <ConfirmDialog
          title={t('trade.giftCards.returnTitle')}
          confirmLabel={t('trade.giftCards.returnConfirm')}
          cancelLabel={t('trade.action.back')}
          busy={busy}
          danger
          onConfirm={async () => {
            if (await state.giveBack()) setAsking(false);
          }}
          onCancel={() => setAsking(false)}
        >
          <p>{t('trade.giftCards.returnText')}</p>
          {state.notice?.kind === 'error' && (
            <p className="field-error" role="alert">
              {state.notice.text}
            </p>
          )}
        </ConfirmDialog>
      )}
    </div>
  );
}

function RemoveDialog({ t, state, fiatText }: { t: T; state: GiftCodeCheckState; fiatText(value: number): string }) {
  const card = state.cardForRemove;
  if (!card) return null;
  return (
    <ConfirmDialog
      title={t('trade.giftCards.removeTitle')}
      confirmLabel={t('trade.giftCards.removeConfirm')}
      cancelLabel={t('trade.action.back')}
      busy={state.busy === 'remove'}
      danger
      onConfirm={() => void state.remove()}
      onCancel={() => state.askRemove(null)}
    >
      <p>{tIsolated(t, 'trade.giftCards.removeText', { value: fiatText(card.value) })}</p>
      {state.removeError && (
        <p className="field-error" role="alert" data-remove-error>
          {state.removeError}
        </p>
      )}
    </ConfirmDialog>
  );
}
