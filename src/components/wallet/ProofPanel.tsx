import { useEffect, useState } from 'react';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import type { ProofCurrency } from '../../lib/shared/liabilities-proof.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../lib/shared/money.ts';
import type { ProofPublicationView } from '../../lib/shared/views/proof.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import type { CurrencyCheck, ProofCheck } from './proof-check.ts';

// "Proof of liabilities" on the wallet (issue 24; docs/trust.md): what was last published (its
// time and each currency's root hash, to copy), and "Verify my balance", which loads the check
// (proof-check.ts, with the shared verifier) only when pressed, verifies the person's proofs in
// the browser against the published roots and says, per currency, the balance the proof commits
// to and whether it is included; then offers the proof as the file `node scripts/verify-proof.ts`
// reads. Nothing published, checking, verified, failed and a network error each say so; the
// result is announced (aria-live). It never says "verified" unless every proof passed.

type T = (key: string, params?: Record<string, string | number>) => string;

type State = { kind: 'idle' } | { kind: 'checking' } | ProofCheck;

const short = (hash: string) => `${hash.slice(0, 10)}…${hash.slice(-6)}`;
const coinName = (t: T, currency: ProofCurrency) => t(currency === 'BTC' ? 'wallet.bitcoin' : 'wallet.tether');
const amountOf = (check: CurrencyCheck, lang: string) =>
  formatCryptoAmount(fromMinorUnits(check.balance, CRYPTO_DECIMALS[check.currency]), check.currency, lang);

/** The check's module is loaded on the first press; a chunk that fails to load is a network error. */
async function runCheck(userId: string, locale: string): Promise<ProofCheck> {
  try {
    const { checkMyProof } = await import('./proof-check.ts');
    return await checkMyProof(userId, locale);
  } catch {
    return { kind: 'network' };
  }
}

/** An object URL of the proof file while it is shown; revoked when it changes or goes. */
function useFileUrl(file: string | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!file) return setUrl(undefined);
    const made = URL.createObjectURL(new Blob([file], { type: 'application/json' }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url;
}

export function ProofPanel({
  t,
  lang,
  locale,
  userId,
  published,
  proofPageLink,
}: {
  t: T;
  lang: string;
  locale: string;
  userId: string;
  /** The latest publication when the page was rendered; null before the first, undefined when unknown. */
  published: ProofPublicationView | null | undefined;
  proofPageLink: string;
}) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const checking = state.kind === 'checking';
  const verify = async () => {
    setState({ kind: 'checking' });
    setState(await runCheck(userId, locale));
  };
  // A publication newer than the page's is the one the check used.
  const shown = state.kind === 'checked' ? state.publication : published;
  const nothing = shown === null || state.kind === 'none';
  return (
    <section
      className="card wallet-proof"
      aria-labelledby="wallet-proof-title"
      data-proof-panel
      data-state={nothing ? 'none' : state.kind}
    >
      <h2 className="h3" id="wallet-proof-title">
        {t('wallet.proof.title')}
      </h2>
      {nothing ? (
        <p className="muted" data-proof-none>
          {t('wallet.proof.none')}
        </p>
      ) : (
        <>
          <p className="muted">{t('wallet.proof.lead')}</p>
          {shown && <Publication t={t} lang={lang} publication={shown} />}
          <button
            type="button"
            className="btn btn-primary wallet-proof-verify"
            disabled={checking}
            aria-busy={checking || undefined}
            onClick={() => void verify()}
          >
            {t(checking ? 'wallet.proof.checking' : 'wallet.proof.verify')}
          </button>
        </>
      )}
      <div className="wallet-proof-result" aria-live="polite" data-proof-result>
        {state.kind === 'checked' && <Outcome t={t} lang={lang} check={state} />}
        {state.kind === 'network' && (
          <div className="alert alert-error" data-proof-network>
            <p className="wallet-proof-message">{t('wallet.proof.networkError')}</p>
            <button type="button" className="btn btn-secondary" onClick={() => void verify()}>
              {t('wallet.proof.retry')}
            </button>
          </div>
        )}
      </div>
      {!nothing && <Offline t={t} link={proofPageLink} />}
    </section>
  );
}

const COMMAND = 'node scripts/verify-proof.ts proof.json';

/** How to check the file offline: the command in its sentence, and the public page that explains it. */
function Offline({ t, link }: { t: T; link: string }) {
  const [before, after = ''] = t('wallet.proof.offline', { command: '\u0000' }).split('\u0000');
  return (
    <p className="muted wallet-proof-offline">
      {before}
      <code className="wallet-mono" dir="ltr">
        {COMMAND}
      </code>
      {after} <a href={link}>{t('wallet.proof.offlineLink')}</a>
    </p>
  );
}

function Publication({ t, lang, publication }: { t: T; lang: string; publication: ProofPublicationView }) {
  const hydrated = useHydrated();
  // The server knows no time zone: UTC until the island runs, then the reader's.
  const time = new Intl.DateTimeFormat(lang, {
    dateStyle: 'medium',
    timeStyle: 'short',
    ...(hydrated ? {} : { timeZone: 'UTC' }),
  }).format(publication.publishedAt);
  return (
    <dl className="wallet-proof-meta">
      <div>
        <dt>{t('wallet.proof.published')}</dt>
        <dd>
          <time dateTime={new Date(publication.publishedAt).toISOString()}>{time}</time>
        </dd>
      </div>
      {publication.roots.map((root) => (
        <div key={root.currency} data-root={root.currency}>
          <dt id={`wallet-proof-root-${root.currency}`}>{t('wallet.proof.root', { currency: root.currency })}</dt>
          <dd className="wallet-proof-hash">
            <code className="wallet-mono" dir="ltr" title={root.rootHash} data-hash={root.rootHash}>
              {short(root.rootHash)}
            </code>
            <CopyButton t={t} text={root.rootHash} currency={root.currency} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** "Copy", named with the hash's label beside it ("Copy BTC root hash"), its words as they are shown. */
function CopyButton({ t, text, currency }: { t: T; text: string; currency: ProofCurrency }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      // No clipboard (an insecure page, a refused permission): the whole hash is in the title.
    }
  };
  return (
    <button
      type="button"
      className="btn btn-secondary wallet-proof-copy"
      id={`wallet-proof-copy-${currency}`}
      aria-labelledby={`wallet-proof-copy-${currency} wallet-proof-root-${currency}`}
      onClick={() => void copy()}
    >
      {copied ? t('wallet.proof.copied') : t('wallet.proof.copy')}
    </button>
  );
}

const PROBLEM_KEYS = {
  invalid: 'wallet.proof.problem.invalid',
  unpublished: 'wallet.proof.problem.unpublished',
  someoneElse: 'wallet.proof.problem.someoneElse',
} as const;

function Outcome({ t, lang, check }: { t: T; lang: string; check: Extract<ProofCheck, { kind: 'checked' }> }) {
  const url = useFileUrl(check.file);
  if (check.checks.length === 0) return <p className="alert alert-info">{t('wallet.proof.notIncluded')}</p>;
  const failed = check.checks.some((c) => c.problem);
  return (
    <div className="wallet-proof-outcome" data-outcome={failed ? 'failed' : 'verified'}>
      <p className={`alert ${failed ? 'alert-error' : 'alert-success'}`}>
        {t(failed ? 'wallet.proof.failed' : 'wallet.proof.verified')}
      </p>
      <ul className="wallet-proof-list">
        {check.checks.map((c) => (
          <li key={c.currency} data-currency={c.currency} data-ok={c.problem ? 'false' : 'true'} data-reason={c.reason}>
            <span className="wallet-proof-coin">
              <span className={`wallet-coin wallet-coin-${c.currency.toLowerCase()}`} aria-hidden="true">
                {c.currency === 'BTC' ? 'B' : 'T'}
              </span>
              {coinName(t, c.currency)}
            </span>
            <bdi className="wallet-proof-amount" data-amount>
              {Number.isSafeInteger(c.balance) && c.balance >= 0 ? amountOf(c, lang) : '—'}
            </bdi>
            <span className={c.problem ? 'wallet-proof-bad' : 'wallet-proof-good'}>
              <span aria-hidden="true">{c.problem ? '✗' : '✓'}</span>
              <span>
                {c.problem
                  ? t(PROBLEM_KEYS[c.problem], { currency: c.currency })
                  : t('wallet.proof.included', { root: short(c.rootHash) })}
              </span>
            </span>
          </li>
        ))}
      </ul>
      {url && (
        <a className="btn btn-secondary" href={url} download="proof.json" data-proof-download>
          {t('wallet.proof.download')}
        </a>
      )}
    </div>
  );
}
