import { tIsolated } from '../../lib/isolated.tsx';
import { BankAccountDetails } from './BankAccountDetails.tsx';
import { BankAccountShare } from './BankAccountShare.tsx';
import { canShareBankAccount, emptyDetailsHint, nothingToShow } from './bank-details.ts';
import { PayerCheck } from './PayerCheck.tsx';
import { PaymentDetailsForm } from './PaymentDetailsForm.tsx';
import { RequirementItem } from './RequirementItem.tsx';
import { isRunning, type TradeUploadView, type TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import type { Requirement } from './use-requirement.ts';

// Payment details revealed per the flow (spec sections 3 and 4): the requirements before reveal
// and before marking paid, each pending, uploaded or rejected and maybe optional; the person who
// answered the offer uploads a proof per requirement; the owner (or a moderator) approves or
// rejects it. Non-optional requirements that are not uploaded hold the trade back. In a
// bank-transfer trade the seller shares a saved account, shown to both with copy buttons; with no
// details at all each side is told what to do instead of an empty box, and the seller writes them
// here until the trade is paid (decision 125).

interface DetailsProps {
  trade: TradeView;
  prefix: string;
  t: T;
  onBankShared(): void;
  onTrade(trade: TradeView): void;
}

/** The owner's instructions, the shared account and the seller's controls, or why there are none. */
function Details({ trade, prefix, t, onBankShared, onTrade }: DetailsProps) {
  if (trade.paymentDetails === null) {
    return (
      <p className="trade-locked" data-payment-details="hidden">
        {t('trade.payment.locked')}
      </p>
    );
  }
  const hint = emptyDetailsHint(trade);
  return (
    <>
      {hint ? (
        <p className="trade-empty-details" role="status" data-payment-details="empty">
          {t(hint)}
        </p>
      ) : (
        trade.paymentDetails.trim() !== '' && (
          <p className="trade-pre trade-details" dir="auto" data-payment-details="shown">
            {trade.paymentDetails}
          </p>
        )
      )}
      {trade.actions.paymentDetails && <PaymentDetailsForm trade={trade} t={t} onTrade={onTrade} />}
      {trade.bankAccount && <BankAccountDetails account={trade.bankAccount} t={t} />}
      {canShareBankAccount(trade, isRunning(trade.status)) && (
        <BankAccountShare
          hash={trade.hash}
          currency={trade.currency}
          hasShared={trade.bankAccount !== null}
          prefix={prefix}
          t={t}
          onShared={onBankShared}
        />
      )}
    </>
  );
}

export function PaymentDetails({
  trade,
  uploads,
  prefix,
  t,
  onChanged,
  onTrade,
}: {
  trade: TradeView;
  uploads: TradeUploadView[];
  /** `''` for English, `/de` and so on: the link to the bank accounts page. */
  prefix: string;
  t: T;
  onChanged(uploads?: TradeUploadView[]): void;
  /** The seller saved the payment details: the server's trade replaces the page's. */
  onTrade(trade: TradeView): void;
}) {
  const { beforeRevealPaymentDetails: beforeReveal, beforeMarkAsPaid: beforePaid } = trade.flow.state;
  const running = isRunning(trade.status);
  if (nothingToShow(trade)) return null;
  const list = (title: string, items: Requirement[]) =>
    items.length > 0 && (
      <div className="trade-requirements">
        <h3 className="trade-subtitle">{title}</h3>
        <ul>
          {items.map((item) => (
            <RequirementItem
              key={item.id}
              trade={trade}
              item={item}
              upload={uploads.find((u) => u.requirementId === item.id)}
              running={running}
              t={t}
              onChanged={onChanged}
            />
          ))}
        </ul>
      </div>
    );
  return (
    <section className="trade-payment card" aria-labelledby="trade-payment-title" data-step={trade.flow.step}>
      <h2 id="trade-payment-title" className="h4">
        {t('trade.payment.title')}
      </h2>
      {list(t('trade.payment.beforeReveal'), beforeReveal)}
      <Details trade={trade} prefix={prefix} t={t} onBankShared={() => onChanged()} onTrade={onTrade} />
      {trade.payerCheck ? (
        <PayerCheck check={trade.payerCheck} t={t} />
      ) : (
        trade.payerName && (
          <p className="muted" data-payer-name>
            {tIsolated(t, 'trade.payment.payerName', { name: trade.payerName })}
          </p>
        )
      )}
      {list(t('trade.payment.beforePaid'), beforePaid)}
    </section>
  );
}
