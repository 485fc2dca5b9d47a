import { useState } from 'react';
import type { TradeGiftCardView } from '../../lib/shared/views/gift-cards.ts';
import type { T } from './ui.tsx';

// One card of a trade's gift code check: its value, kind, receipt and state, its pictures
// (thumbnails that open full size), and its code: hidden, a reveal button for the seller once
// the buyer marked paid, or the revealed code with a copy button. The buyer may remove a card
// the seller has not opened. The code is only ever in this card's DOM, never logged or linked.

export interface GiftCardItemProps {
  card: TradeGiftCardView;
  index: number;
  role: 'buyer' | 'seller' | 'moderator';
  t: T;
  fiatText(value: number): string;
  canReveal: boolean;
  canRemove: boolean;
  busy: string | null;
  onReveal(id: string): void;
  onRemove(card: TradeGiftCardView): void;
}

function CopyButton({ code, t }: { code: string; t: T }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the code stays selectable.
    }
  };
  return (
    <button type="button" className="btn btn-secondary btn-sm" onClick={() => void copy()} data-copy-code>
      <span aria-live="polite">{copied ? t('trade.giftCards.copied') : t('trade.giftCards.copy')}</span>
    </button>
  );
}

/** The code area: the revealed code, the reveal button, or why it stays hidden. */
function CodeArea({ card, role, t, canReveal, busy, onReveal }: GiftCardItemProps) {
  if (card.code) {
    return (
      <div className="gift-code">
        <span className="gift-code-label">{t('trade.giftCards.code')}</span>
        <code className="gift-code-value" data-gift-code dir="ltr">
          {card.code}
        </code>
        <CopyButton code={card.code} t={t} />
      </div>
    );
  }
  if (canReveal && card.state !== 'used') {
    const working = busy === `reveal:${card.id}`;
    return (
      <button
        type="button"
        className="btn btn-primary btn-sm"
        data-reveal={card.id}
        onClick={() => onReveal(card.id)}
        disabled={working}
      >
        {working ? t('trade.action.working') : t('trade.giftCards.reveal')}
      </button>
    );
  }
  const opened = card.state === 'revealed' || card.state === 'used';
  return (
    <p className="muted gift-code-hidden">
      {t(opened ? 'trade.giftCards.codeOpened' : `trade.giftCards.codeHidden.${role}`)}
    </p>
  );
}

export function GiftCardItem(props: GiftCardItemProps) {
  const { card, index, t, fiatText } = props;
  const value = fiatText(card.value);
  return (
    <li className="gift-card" data-gift-card={card.id} data-state={card.state}>
      <div className="gift-card-head">
        <strong className="gift-card-value">
          <bdi>{value}</bdi>
        </strong>
        <span className={`trade-chip gift-card-state gift-card-state-${card.state}`}>
          {t(`trade.giftCards.state.${card.state}`)}
        </span>
      </div>
      <p className="muted gift-card-meta">
        {t(`trade.giftCards.kind.${card.type}`)} ·{' '}
        {t(card.receipt ? 'trade.giftCards.withReceipt' : 'trade.giftCards.noReceipt')}
      </p>
      {card.images.length > 0 && (
        <ul className="gift-card-images" aria-label={t('trade.giftCards.images', { value })}>
          {card.images.map((image, n) => (
            <li key={image.id}>
              <a href={image.url} target="_blank" rel="noopener">
                <img
                  src={image.url}
                  alt={t('trade.giftCards.image', { n: n + 1, card: index + 1 })}
                  width={72}
                  height={72}
                  loading="lazy"
                />
              </a>
            </li>
          ))}
        </ul>
      )}
      <CodeArea {...props} />
      {props.canRemove && card.state === 'in_use' && (
        <button
          type="button"
          className="btn btn-secondary btn-sm gift-card-remove"
          data-remove={card.id}
          onClick={() => props.onRemove(card)}
        >
          {t('trade.giftCards.remove')}
        </button>
      )}
    </li>
  );
}
