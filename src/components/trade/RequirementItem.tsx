import { TRADE_ATTACHMENT_ACCEPT } from '../../lib/shared/trade-attachments.ts';
import type { TradeUploadView, TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { type Requirement, useRequirement } from './use-requirement.ts';

// One payment requirement (spec sections 3 and 4): pending, uploaded or rejected and maybe
// optional; its proof; the responder's upload button; the owner's (or a moderator's) review.

export function RequirementItem({
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
  const { state, error, send, review } = useRequirement(trade, item, t, onChanged);
  const canUpload = trade.isResponder && running && upload?.status !== 'approved';
  const canReview = (trade.isVendor || trade.role === 'moderator') && running && upload?.status === 'pending';
  const posting = state === 'posting';

  return (
    <li className="trade-requirement" data-requirement={item.kind} data-status={item.status}>
      <div className="trade-requirement-head">
        <span className="trade-requirement-name">{t(`trade.requirement.kind.${item.kind}`)}</span>
        {item.optional && <span className="trade-chip">{t('trade.requirement.optional')}</span>}
        <span className={`trade-chip trade-chip-${item.status}`}>{t(`trade.requirement.status.${item.status}`)}</span>
      </div>
      {upload && <RequirementProof upload={upload} t={t} />}
      {canUpload && <ProofUpload item={item} again={upload !== undefined} posting={posting} t={t} onFile={send} />}
      {canReview && <ProofReview posting={posting} t={t} onReview={review} />}
      {state === 'error' && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

function RequirementProof({ upload, t }: { upload: TradeUploadView; t: T }) {
  return (
    <p className="trade-requirement-proof">
      <a className="text-link" href={upload.resource.url} target="_blank" rel="noopener">
        {t('trade.requirement.view')}
      </a>{' '}
      <span className={`trade-chip trade-chip-review-${upload.status}`} data-review={upload.status}>
        {t(`trade.requirement.review.${upload.status}`)}
      </span>
    </p>
  );
}

function ProofUpload({
  item,
  again,
  posting,
  t,
  onFile,
}: {
  item: Requirement;
  again: boolean;
  posting: boolean;
  t: T;
  onFile(file: File): Promise<void>;
}) {
  return (
    <label className={`btn btn-secondary trade-file${posting ? ' is-busy' : ''}`}>
      {posting ? t('trade.upload.sending') : t(again ? 'trade.requirement.uploadAgain' : 'trade.requirement.upload')}
      <input
        type="file"
        accept={TRADE_ATTACHMENT_ACCEPT}
        className="visually-hidden"
        disabled={posting}
        data-upload-requirement={item.id}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void onFile(file);
        }}
      />
    </label>
  );
}

function ProofReview({
  posting,
  t,
  onReview,
}: {
  posting: boolean;
  t: T;
  onReview(action: 'approve' | 'reject'): Promise<void>;
}) {
  return (
    <div className="trade-review">
      <button type="button" className="btn btn-primary" disabled={posting} onClick={() => void onReview('approve')}>
        {t('trade.requirement.approve')}
      </button>
      <button type="button" className="btn btn-secondary" disabled={posting} onClick={() => void onReview('reject')}>
        {t('trade.requirement.reject')}
      </button>
    </div>
  );
}
