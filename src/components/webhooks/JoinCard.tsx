import type { T } from './types.ts';

// The invitation for a signed-in person who is not a merchant: what a merchant account gives
// (signed webhooks for trades, chats, deposits and ratings), and the button that turns the account
// into one; someone whose identity is not verified yet is sent to the verification page instead.

const GIVES = ['trades', 'chat', 'deposits', 'feedback'] as const;

export interface JoinProps {
  t: T;
  isIdVerified: boolean;
  verificationLink: string;
  guideLink: string;
  joining: boolean;
  error: string | null;
  onJoin(): void;
}

export function JoinCard({ t, isIdVerified, verificationLink, guideLink, joining, error, onJoin }: JoinProps) {
  return (
    <section className="card wh-join" aria-labelledby="wh-join-title" data-testid="merchant-invitation">
      <h2 className="h3" id="wh-join-title">
        {t('webhooks.join.title')}
      </h2>
      <p>{t('webhooks.join.lead')}</p>
      <ul className="wh-join-list">
        {GIVES.map((item) => (
          <li key={item}>{t(`webhooks.join.${item}`)}</li>
        ))}
      </ul>
      <p className="muted">
        {t('webhooks.join.how')}{' '}
        <a className="text-link" href={guideLink}>
          {t('webhooks.guide')}
        </a>
      </p>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      {isIdVerified ? (
        <p>
          <button
            type="button"
            className="btn btn-primary"
            disabled={joining}
            aria-busy={joining || undefined}
            onClick={onJoin}
          >
            {t(joining ? 'webhooks.join.busy' : 'webhooks.join.action')}
          </button>
        </p>
      ) : (
        <div className="alert alert-info wh-needs-id" data-testid="merchant-needs-id">
          <p>{t('webhooks.join.needsId')}</p>
          <p>
            <a className="btn btn-primary" href={verificationLink}>
              {t('webhooks.join.verify')}
            </a>
          </p>
        </div>
      )}
    </section>
  );
}
