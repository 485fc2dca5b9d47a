import { Fragment } from 'react';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import { LEDGER_TRANSACTION_KINDS } from '../../lib/shared/ledger-kinds.ts';
import { entryKey, type WalletEntry, type WalletPage } from './types.ts';

// The wallet's ledger (transactions), newest first, 50 a page with "more" (spec section 9's page
// size). A table on wide screens; each row a small card on phones (CSS only).

type T = (key: string, params?: Record<string, string | number>) => string;

const STATUSES = ['incoming', 'pending', 'broadcast', 'confirmed', 'failed', 'completed'];

const short = (text: string) => (text.length > 20 ? `${text.slice(0, 10)}…${text.slice(-8)}` : text);

/** The status as read, with the confirmations while a transaction waits for them. */
function statusText(t: T, entry: WalletEntry): string {
  const label = STATUSES.includes(entry.status) ? t(`wallet.status.${entry.status}`) : entry.status;
  const waiting =
    (entry.status === 'incoming' || entry.status === 'broadcast') &&
    typeof entry.confirmations === 'number' &&
    typeof entry.requiredConfirmations === 'number';
  return waiting
    ? `${label} · ${t('wallet.confirmationsOf', { count: entry.confirmations ?? 0, required: entry.requiredConfirmations ?? 0 })}`
    : label;
}

/** The network, the shortened address and the fee, those an entry has. */
function detailsOf(t: T, entry: WalletEntry, lang: string): string[] {
  return [
    entry.network ? t(`wallet.network.${entry.network}`) : '',
    entry.address ? short(entry.address) : '',
    entry.fee && Number(entry.fee) > 0
      ? t('wallet.ledger.fee', { fee: formatCryptoAmount(entry.fee, entry.cryptoCurrencyCode, lang) })
      : '',
  ].filter(Boolean);
}

export function LedgerTable({
  t,
  lang,
  history,
  loadingMore,
  onMore,
  onDeposit,
}: {
  t: T;
  lang: string;
  history: WalletPage;
  loadingMore: boolean;
  onMore(): void;
  /** An empty ledger's next step: the receive (deposit) dialog. */
  onDeposit?: () => void;
}) {
  const date = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <section className="card wallet-ledger" data-tour="ledger" aria-labelledby="wallet-ledger-title">
      <h2 className="h3" id="wallet-ledger-title">
        {t('wallet.ledger.title')}
      </h2>
      {history.items.length === 0 ? (
        <div className="empty-state" data-empty>
          <p className="muted">{t('wallet.ledger.empty')}</p>
          {onDeposit && (
            <button type="button" className="btn btn-secondary" onClick={onDeposit}>
              {t('wallet.ledger.deposit')}
            </button>
          )}
        </div>
      ) : (
        <table className="wallet-table">
          <LedgerHead t={t} />
          <tbody>
            {history.items.map((entry) => (
              <LedgerRow key={entryKey(entry)} t={t} lang={lang} date={date} entry={entry} />
            ))}
          </tbody>
        </table>
      )}
      {history.more && (
        <button type="button" className="btn btn-secondary wallet-more" disabled={loadingMore} onClick={onMore}>
          {loadingMore ? t('wallet.loading') : t('wallet.ledger.more')}
        </button>
      )}
    </section>
  );
}

function LedgerHead({ t }: { t: T }) {
  return (
    <thead>
      <tr>
        <th scope="col">{t('wallet.ledger.date')}</th>
        <th scope="col">{t('wallet.ledger.type')}</th>
        <th scope="col" className="wallet-num">
          {t('wallet.ledger.amount')}
        </th>
        <th scope="col">{t('wallet.ledger.status')}</th>
        <th scope="col">{t('wallet.ledger.details')}</th>
      </tr>
    </thead>
  );
}

function LedgerRow({ t, lang, date, entry }: { t: T; lang: string; date: Intl.DateTimeFormat; entry: WalletEntry }) {
  const negative = entry.amount.startsWith('-');
  const details = detailsOf(t, entry, lang);
  return (
    <tr data-entry={entry.type} data-status={entry.status}>
      <td data-label={t('wallet.ledger.date')}>
        <time dateTime={new Date(entry.createdAt * 1000).toISOString()}>{date.format(entry.createdAt * 1000)}</time>
      </td>
      <td data-label={t('wallet.ledger.type')}>
        {(LEDGER_TRANSACTION_KINDS as readonly string[]).includes(entry.type)
          ? t(`wallet.type.${entry.type}`)
          : entry.type}
      </td>
      <td data-label={t('wallet.ledger.amount')} className={`wallet-num ${negative ? 'wallet-out' : 'wallet-in'}`}>
        <bdi>{formatCryptoAmount(entry.amount, entry.cryptoCurrencyCode, lang, { sign: true })}</bdi>
      </td>
      <td data-label={t('wallet.ledger.status')}>
        <span className={`wallet-status wallet-status-${entry.status}`}>{statusText(t, entry)}</span>
      </td>
      <td data-label={t('wallet.ledger.details')} className="wallet-details">
        {/* Each detail isolated: an address or amount keeps its order in a right-to-left line (issue 22). */}
        {details.length > 0
          ? details.map((detail, i) => (
              <Fragment key={detail}>
                {i > 0 && ' · '}
                <bdi>{detail}</bdi>
              </Fragment>
            ))
          : '—'}
        {entry.txid && (
          <span className="wallet-mono muted" title={entry.txid}>
            {' '}
            {t('wallet.ledger.txid', { txid: short(entry.txid) })}
          </span>
        )}
      </td>
    </tr>
  );
}
