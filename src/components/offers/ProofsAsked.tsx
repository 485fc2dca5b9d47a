import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { OfferTradeRequirement } from '../../lib/shared/trade-requirements.ts';

// What this offer will ask of the person before they start (issue 22, decision 138): the proofs
// its vendor requires (decision 128), each with when it is due, and the payment terms a gold
// offer has them accept. Said before the start button, so nobody learns it inside the trade.

type T = ReturnType<typeof islandTranslator>;

export function ProofsAsked({
  t,
  id,
  proofs,
  isGold,
}: {
  t: T;
  id: string;
  proofs: readonly OfferTradeRequirement[];
  isGold: boolean;
}) {
  if (proofs.length === 0 && !isGold) return null;
  // Due first at the step that comes first in the trade: before the payment details show.
  const ordered = [...proofs].sort((a, b) => Number(a.stage === 'before_paid') - Number(b.stage === 'before_paid'));
  return (
    <section className="start-asks" aria-labelledby={`${id}-asks`} data-testid="proofs-asked">
      <h3 id={`${id}-asks`} className="start-asks-title">
        {t('offer.proofs.title')}
      </h3>
      <ul className="start-asks-list">
        {isGold && (
          <li data-ask="gold">
            <strong>{t('offer.proofs.gold')}</strong>
            <span className="muted">{t('offer.proofs.goldWhen')}</span>
          </li>
        )}
        {ordered.map((proof) => (
          <li key={`${proof.stage}-${proof.kind}`} data-ask={proof.kind} data-stage={proof.stage}>
            <strong>
              {t(`trade.requirement.kind.${proof.kind}`)}
              {proof.optional && <span className="start-asks-optional">{t('trade.requirement.optional')}</span>}
            </strong>
            <span className="muted">{t(`offer.proofs.when.${proof.stage}`)}</span>
          </li>
        ))}
      </ul>
      {proofs.length > 0 && <p className="muted start-asks-how">{t('offer.proofs.how')}</p>}
    </section>
  );
}
