import { useMemo } from 'react';
import { tIsolated } from '../../lib/isolated.tsx';
import type { IslandMessages } from '../../lib/shared/i18n/island-messages.ts';
import { Facts, Section } from './PeopleFile.tsx';
import { AdminFormatContext, adminFormat, useAdminFormat } from './use-admin-format.ts';

// One trade as GET /rest/v1/operators/trades/{hash} answers it (server/services/operators/
// trade-lookup.ts): terms, both parties (each a link to their file), the audit trail of
// transitions, the ledger transactions it posted and the chat with the moderators' lines marked.
// Rendered on the server only: nothing on this screen changes, so it ships no script.

type Crypto = { minor: number; amount: string; currency: 'BTC' | 'USDT' };
type Party = { publicId: string; username: string };
type Actor = 'buyer' | 'seller' | 'moderator' | 'system';

export interface TradeLookup {
  trade: {
    hash: string;
    status: string;
    offerType: 'buy' | 'sell';
    crypto: Crypto;
    fee: Crypto;
    fiat: { minor: number; amount: string; currency: string };
    paymentMethod: string;
    buyer: Party;
    seller: Party;
    startedAt: number;
    expiresAt: number;
    paidAt: number | null;
    endedAt: number | null;
    dispute: { at: number; reason: string | null; text: string | null; resolvedBy: string | null } | null;
  };
  transitions: {
    action: string;
    fromStatus: string | null;
    toStatus: string;
    actorRole: Actor;
    actor: string | null;
    ledgerTransactionId: string | null;
    note: string | null;
    at: number;
  }[];
  ledger: {
    transactionId: string;
    kind: string;
    memo: string | null;
    createdAt: number;
    postings: (Crypto & { account: string; owner: string | null })[];
  }[];
  chat: {
    authorRole: Actor;
    author: string | null;
    body: string | null;
    attachment: string | null;
    isForModerator: boolean;
    createdAt: number;
  }[];
}

function PartyLink({ party }: { party: Party }) {
  const { locale } = useAdminFormat();
  const prefix = locale === 'en' ? '' : `/${locale}`;
  return (
    <a className="text-link" href={`${prefix}/admin?id=${party.publicId}`} data-party={party.publicId}>
      <bdi>{party.username}</bdi>
    </a>
  );
}

function Terms({ trade }: { trade: TradeLookup['trade'] }) {
  const { t, when, crypto, fiat } = useAdminFormat();
  return (
    <Section title={t('admin.trade.terms')} name="terms">
      <Facts
        rows={[
          [
            t('admin.trade.status'),
            <span key="s" data-trade-status={trade.status}>
              {t(`trade.status.${trade.status}`)}
            </span>,
          ],
          [t('admin.trade.offer'), t(`admin.trade.offer.${trade.offerType}`)],
          [t('admin.file.buyer'), <PartyLink key="b" party={trade.buyer} />],
          [t('admin.file.seller'), <PartyLink key="s" party={trade.seller} />],
          [t('admin.trade.crypto'), <bdi key="c">{crypto(trade.crypto)}</bdi>],
          [t('admin.trade.fee'), <bdi key="f">{crypto(trade.fee)}</bdi>],
          [t('admin.trade.fiat'), <bdi key="p">{fiat(trade.fiat)}</bdi>],
          [t('admin.trade.method'), <bdi key="m">{trade.paymentMethod}</bdi>],
          [t('admin.trade.started'), when(trade.startedAt)],
          [t('admin.trade.expires'), when(trade.expiresAt)],
          [t('admin.trade.paid'), when(trade.paidAt)],
          [t('admin.trade.ended'), when(trade.endedAt)],
        ]}
      />
      {trade.dispute && (
        <>
          <h3 className="h5">{t('admin.trade.dispute')}</h3>
          <p>
            {tIsolated(t, 'admin.trade.disputeOpened', { date: when(trade.dispute.at) })}
            {trade.dispute.reason && (
              <>
                {' · '}
                <code className="admin-code">{trade.dispute.reason}</code>
              </>
            )}
            {trade.dispute.resolvedBy && ` · ${t('admin.trade.decidedBy', { username: trade.dispute.resolvedBy })}`}
          </p>
          {trade.dispute.text && <blockquote className="admin-quote">{trade.dispute.text}</blockquote>}
        </>
      )}
    </Section>
  );
}

function actorOf(t: (key: string) => string, role: Actor, name: string | null) {
  return name ? `${t(`admin.actor.${role}`)} ${name}` : t(`admin.actor.${role}`);
}

function Trail({ transitions }: { transitions: TradeLookup['transitions'] }) {
  const { t, when } = useAdminFormat();
  return (
    <Section title={t('admin.trade.trail')} name="trail">
      {transitions.length === 0 ? (
        <p className="muted">{t('admin.trade.nothing')}</p>
      ) : (
        <ol className="admin-list admin-trail">
          {transitions.map((step, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the trail's steps in their order, never reordered
            <li key={i} data-transition={step.action}>
              <bdi className="muted">{when(step.at)}</bdi>
              <code className="admin-code">{step.action}</code>
              <span>
                {step.fromStatus && (
                  <>
                    {t(`trade.status.${step.fromStatus}`)}{' '}
                    <span className="admin-arrow" aria-hidden="true">
                      →
                    </span>{' '}
                  </>
                )}
                {t(`trade.status.${step.toStatus}`)}
              </span>
              <bdi>{actorOf(t, step.actorRole, step.actor)}</bdi>
              {step.ledgerTransactionId && <code className="admin-code">{step.ledgerTransactionId}</code>}
              {step.note && <bdi className="muted">{step.note}</bdi>}
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

function Ledger({ ledger }: { ledger: TradeLookup['ledger'] }) {
  const { t, when, crypto } = useAdminFormat();
  return (
    <Section title={t('admin.trade.ledger')} name="ledger">
      {ledger.length === 0 ? (
        <p className="muted">{t('admin.trade.nothing')}</p>
      ) : (
        ledger.map((entry) => (
          <div key={entry.transactionId} className="admin-transaction" data-ledger-transaction={entry.transactionId}>
            <p>
              <code className="admin-code">{entry.kind}</code> <code className="admin-code">{entry.transactionId}</code>{' '}
              <bdi className="muted">{when(entry.createdAt)}</bdi>
            </p>
            <Facts
              rows={entry.postings.map((p, i) => [
                `${i + 1}. ${p.account}${p.owner ? ` · ${p.owner}` : ''}`,
                <bdi key="a" className={p.minor < 0 ? 'admin-out' : 'admin-in'}>
                  {crypto(p, true)}
                </bdi>,
              ])}
            />
          </div>
        ))
      )}
    </Section>
  );
}

/** The system's lines are message keys (trade.system.*), written in the reader's language as on the trade page. */
function chatText(t: (key: string) => string, line: TradeLookup['chat'][number]): string {
  const body = line.body ?? '';
  return line.authorRole === 'system' && body.startsWith('trade.system.') ? t(body) : body;
}

function Chat({ chat }: { chat: TradeLookup['chat'] }) {
  const { t, when } = useAdminFormat();
  return (
    <Section title={t('admin.trade.chat')} name="chat">
      {chat.length === 0 ? (
        <p className="muted">{t('admin.trade.nothing')}</p>
      ) : (
        <ol className="admin-list admin-chat">
          {chat.map((line, i) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: the chat's lines in their order, never reordered
              key={i}
              className={line.authorRole === 'moderator' ? 'admin-chat-moderator' : undefined}
              data-chat-role={line.authorRole}
            >
              <span>
                <bdi>{actorOf(t, line.authorRole, line.author)}</bdi>{' '}
                <bdi className="muted">{when(line.createdAt)}</bdi>
                {line.isForModerator && <span className="admin-tag">{t('admin.trade.toModerators')}</span>}
              </span>
              {line.body && <bdi className="admin-chat-body">{chatText(t, line)}</bdi>}
              {line.attachment && (
                <span className="muted">
                  {t('admin.trade.attachment')} <code className="admin-code">{line.attachment}</code>
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

export default function TradeFile({
  locale,
  lang,
  messages,
  lookup,
}: {
  locale: string;
  lang: string;
  messages: IslandMessages;
  lookup: TradeLookup;
}) {
  const format = useMemo(() => adminFormat(locale, lang, messages), [locale, lang, messages]);
  return (
    <AdminFormatContext.Provider value={format}>
      <div className="admin-file" data-trade-file={lookup.trade.hash}>
        <Terms trade={lookup.trade} />
        <Trail transitions={lookup.transitions} />
        <Ledger ledger={lookup.ledger} />
        <Chat chat={lookup.chat} />
      </div>
    </AdminFormatContext.Provider>
  );
}
