import { useRef, useState } from 'react';
import { formatPercent } from '../../lib/shared/format.ts';
import type { T } from './types.ts';

// The affiliate's link, read-only with a copy button that says when it copied, its QR code (the
// page renders the SVG, uqr) for a phone to scan, and what the link earns per tier.

export function ReferralLink({
  t,
  lang,
  link,
  qrSvg,
  rates,
}: {
  t: T;
  lang: string;
  link: string;
  qrSvg: string;
  rates: { tier1: number; tier2: number };
}) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      setTimeout(() => setCopied(false), 2500);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the link is selected to copy by hand.
      field.current?.select();
    }
  };
  return (
    <section className="card aff-link" aria-labelledby="aff-link-title" data-testid="referral-link">
      <div className="aff-link-main">
        <h2 className="h3" id="aff-link-title">
          {t('affiliates.link.title')}
        </h2>
        <p className="muted">
          {t('affiliates.link.rates', {
            tier1: formatPercent(rates.tier1, lang),
            tier2: formatPercent(rates.tier2, lang),
          })}
        </p>
        <label className="field-label" htmlFor="aff-link-field">
          {t('affiliates.link.label')}
        </label>
        <div className="aff-link-row">
          <input
            ref={field}
            id="aff-link-field"
            className="input aff-link-field"
            type="text"
            readOnly
            value={link}
            dir="ltr"
            onFocus={(event) => event.currentTarget.select()}
          />
          <button
            type="button"
            className={`btn ${copied ? 'btn-primary' : 'btn-secondary'} aff-copy`}
            data-copied={copied || undefined}
            onClick={() => void copy()}
          >
            {t(copied ? 'affiliates.link.copied' : 'affiliates.link.copy')}
          </button>
        </div>
        <p className="visually-hidden" role="status">
          {copied ? t('affiliates.link.copiedStatus') : ''}
        </p>
      </div>
      <div
        className="aff-qr"
        role="img"
        aria-label={t('affiliates.link.qr')}
        // The page renders this SVG from the link (uqr); it carries no script.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: our own page's SVG of the link
        dangerouslySetInnerHTML={{ __html: qrSvg }}
      />
    </section>
  );
}
