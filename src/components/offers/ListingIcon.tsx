// Marks from the listing's sprite (listing-icons.svg, decision 134): the file is fetched once,
// with a hashed name and a year's cache, and each row points into it. Never inlined as a data:
// URL (Vite would for a small file), which <use> cannot point into.
import sprite from './listing-icons.svg?url&no-inline';

/** Payment groups with a mark of their own; any other shows `pm-other`. */
const GROUP_MARKS = new Set([
  'bank-transfers',
  'cash-deposits',
  'debitcredit-cards',
  'digital-currencies',
  'gift-cards',
  'online-transfers',
  'cash-in-person',
  'goods-and-services',
]);

/** Decorative: the group's or coin's name is always written beside it. */
function SpriteIcon({ id, className, size }: { id: string; className: string; size: number }) {
  return (
    <svg className={className} width={size} height={size} aria-hidden="true" focusable="false">
      <use href={`${sprite}#${id}`} />
    </svg>
  );
}

export function PaymentGroupIcon({ group }: { group: string }) {
  return <SpriteIcon id={`pm-${GROUP_MARKS.has(group) ? group : 'other'}`} className="pm-icon" size={20} />;
}

export function CoinMark({ code, size = 18 }: { code: string; size?: number }) {
  return <SpriteIcon id={code === 'USDT' ? 'coin-usdt' : 'coin-btc'} className="coin-mark" size={size} />;
}
