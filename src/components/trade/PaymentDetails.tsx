import { RequirementItem } from './RequirementItem.tsx';
import { isRunning, type TradeUploadView, type TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import type { Requirement } from './use-requirement.ts';

// Payment details revealed per the flow (spec sections 3 and 4): the requirements before reveal
// and before marking paid, each pending, uploaded or rejected and maybe optional; the person who
// answered the offer uploads a proof per requirement; the owner (or a moderator) approves or
// rejects it. Non-optional requirements that are not uploaded hold the trade back.

export function PaymentDetails({
  trade,
  uploads,
  t,
  onChanged,
}: {
  trade: TradeView;
  uploads: TradeUploadView[];
  t: T;
  onChanged(uploads?: TradeUploadView[]): void;
}) {
  const { beforeRevealPaymentDetails: beforeReveal, beforeMarkAsPaid: beforePaid } = trade.flow.state;
  const running = isRunning(trade.status);
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
      {trade.paymentDetails === null ? (
        <p className="trade-locked" data-payment-details="hidden">
          {t('trade.payment.locked')}
        </p>
      ) : (
        <p className="trade-pre trade-details" dir="auto" data-payment-details="shown">
          {trade.paymentDetails}
        </p>
      )}
      {trade.payerName && <p className="muted">{t('trade.payment.payerName', { name: trade.payerName })}</p>}
      {list(t('trade.payment.beforePaid'), beforePaid)}
    </section>
  );
}
