import { useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { TRADE_ATTACHMENT_ACCEPT } from '../../lib/shared/trade-attachments.ts';
import { isRunning, type TradeUploadView, type TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { sendFiles, uploadError } from './upload.ts';

// Payment details revealed per the flow (spec sections 3 and 4): the requirements before reveal
// and before marking paid, each pending, uploaded or rejected and maybe optional; the person who
// answered the offer uploads a proof per requirement; the owner (or a moderator) approves or
// rejects it. Non-optional requirements that are not uploaded hold the trade back.

type Requirement = TradeView['flow']['state']['beforeRevealPaymentDetails'][number];

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

function RequirementItem({
  trade,
  item,
  upload,
  running,
  t,
  onChanged,
}: {
  trade: TradeView;
  item: Requirement;
  upload: TradeUploadView | undefined;
  running: boolean;
  t: T;
  onChanged(uploads?: TradeUploadView[]): void;
}) {
  const [state, setState] = useState<'initial' | 'posting' | 'error'>('initial');
  const [error, setError] = useState('');
  const canUpload = trade.isResponder && running && upload?.status !== 'approved';
  const canReview = (trade.isVendor || trade.role === 'moderator') && running && upload?.status === 'pending';

  const send = async (file: File) => {
    setState('posting');
    setError('');
    const sent = await sendFiles(trade.hash, [file], false);
    const url = sent.data?.[0]?.attachment?.url;
    if (!sent.ok || !url) {
      setError(uploadError(sent, t));
      setState('error');
      return;
    }
    const linked = await apiPost<TradeUploadView[]>(`/rest/v1/trade/${trade.hash}/upload`, {
      url,
      requirement: item.id,
    });
    if (!linked.ok) {
      setError(uploadError(linked, t));
      setState('error');
      return;
    }
    setState('initial');
    onChanged(linked.data);
  };

  const review = async (action: 'approve' | 'reject') => {
    setState('posting');
    setError('');
    const result = await apiPost<TradeUploadView[]>(`/rest/v1/trade/${trade.hash}/requirement`, {
      action,
      id: item.id,
    });
    if (!result.ok) {
      setError(result.errors[0]?.message || t('trade.action.failed'));
      setState('error');
      return;
    }
    setState('initial');
    onChanged(result.data);
  };

  return (
    <li className="trade-requirement" data-requirement={item.kind} data-status={item.status}>
      <div className="trade-requirement-head">
        <span className="trade-requirement-name">{t(`trade.requirement.kind.${item.kind}`)}</span>
        {item.optional && <span className="trade-chip">{t('trade.requirement.optional')}</span>}
        <span className={`trade-chip trade-chip-${item.status}`}>{t(`trade.requirement.status.${item.status}`)}</span>
      </div>
      {upload && (
        <p className="trade-requirement-proof">
          <a className="text-link" href={upload.resource.url} target="_blank" rel="noopener">
            {t('trade.requirement.view')}
          </a>{' '}
          <span className={`trade-chip trade-chip-review-${upload.status}`} data-review={upload.status}>
            {t(`trade.requirement.review.${upload.status}`)}
          </span>
        </p>
      )}
      {canUpload && (
        <label className={`btn btn-secondary trade-file${state === 'posting' ? ' is-busy' : ''}`}>
          {state === 'posting'
            ? t('trade.upload.sending')
            : t(upload ? 'trade.requirement.uploadAgain' : 'trade.requirement.upload')}
          <input
            type="file"
            accept={TRADE_ATTACHMENT_ACCEPT}
            className="visually-hidden"
            disabled={state === 'posting'}
            data-upload-requirement={item.id}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void send(file);
            }}
          />
        </label>
      )}
      {canReview && (
        <div className="trade-review">
          <button
            type="button"
            className="btn btn-primary"
            disabled={state === 'posting'}
            onClick={() => void review('approve')}
          >
            {t('trade.requirement.approve')}
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={state === 'posting'}
            onClick={() => void review('reject')}
          >
            {t('trade.requirement.reject')}
          </button>
        </div>
      )}
      {state === 'error' && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
