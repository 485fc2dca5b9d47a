import { tIsolated } from '../../lib/isolated.tsx';
import type { TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';

// Trade terms (spec section 2): the offer's tags and terms as they were when the trade started.

export function TradeTerms({ trade, t }: { trade: TradeView; t: T }) {
  const { tags, offerTerms, ownerUserName } = trade.info;
  return (
    <section className="trade-terms card" aria-labelledby="trade-terms-title">
      <h2 id="trade-terms-title" className="h4">
        {tIsolated(t, 'trade.terms.title', { username: ownerUserName })}
      </h2>
      {tags.length > 0 && (
        <ul className="offer-tags">
          {tags.map((tag) => (
            <li key={tag}>{t(`offer.tag.${tag}`)}</li>
          ))}
        </ul>
      )}
      {offerTerms ? (
        <p className="trade-pre" dir="auto">
          {offerTerms}
        </p>
      ) : (
        <p className="muted">{t('trade.terms.none')}</p>
      )}
    </section>
  );
}
