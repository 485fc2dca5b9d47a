import { ConfirmDialog, type T } from './ui.tsx';

// External-link warning (spec section 2): a chat link that leaves the site opens only after the
// reader has seen where it goes. The new tab gets no opener and no referrer (the trade's address).

export function ExternalLinkWarning({ href, t, onClose }: { href: string; t: T; onClose(): void }) {
  return (
    <ConfirmDialog
      title={t('trade.external.title')}
      confirmLabel={t('trade.external.continue')}
      cancelLabel={t('trade.external.cancel')}
      onCancel={onClose}
      onConfirm={() => {
        window.open(href, '_blank', 'noopener,noreferrer');
        onClose();
      }}
    >
      <p>{t('trade.external.text')}</p>
      <p className="trade-external-url" dir="ltr" data-external-url>
        {href}
      </p>
    </ConfirmDialog>
  );
}
