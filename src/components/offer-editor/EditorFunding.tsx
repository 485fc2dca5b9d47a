import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import { CRYPTO_DECIMALS, fromMinorUnits, toMinorUnits } from '../../lib/shared/money.ts';
import { minimumToFund } from '../../lib/shared/offer-funding.ts';
import { FundingWarning } from './FundingWarning.tsx';
import { useEditor } from './ui.tsx';

// While the vendor writes a sell offer: would buyers see it? Its smallest trade with the escrow fee
// at the price being typed, weighed against the wallet the page was rendered with, as the
// listing weighs it (src/lib/shared/offer-funding.ts, decision 121). Nothing shows for a buy
// offer, before a price and a minimum are known, or when the wallet covers it.

export interface EditorFundingProps {
  type: 'buy' | 'sell';
  crypto: 'BTC' | 'USDT';
  /** The minimum as typed, in the currency's major units. */
  fiatMin: string;
  /** The offer's price per coin as typed, undefined until known. */
  price: number | undefined;
  /** The currency's decimals. */
  decimals: number;
  groupSlug: string | undefined;
  /** The vendor's wallets in minor units; undefined when they could not be read. */
  balances: Record<'BTC' | 'USDT', number> | undefined;
  walletHref: string;
}

export function EditorFunding({
  type,
  crypto,
  fiatMin,
  price,
  decimals,
  groupSlug,
  balances,
  walletHref,
}: EditorFundingProps) {
  const { t, lang } = useEditor();
  const fiatMinMinor = toMinorUnits(fiatMin, decimals);
  if (type !== 'sell' || !balances || price === undefined || !fiatMinMinor || fiatMinMinor <= 0) return null;
  const cryptoDecimals = CRYPTO_DECIMALS[crypto];
  const need = minimumToFund({
    fiatMinMinor,
    priceMinor: Math.round(price * 10 ** decimals),
    cryptoDecimals,
    groupSlug: groupSlug ?? 'default',
  });
  const balance = balances[crypto];
  if (need === undefined || balance >= need) return null;
  const amount = (minor: number) => formatCryptoAmount(fromMinorUnits(minor, cryptoDecimals), crypto, lang);
  return (
    <FundingWarning
      title={t('offerFunding.title')}
      text={t('offerFunding.text', { crypto, balance: amount(balance), needed: amount(need) })}
      depositLabel={t('offerFunding.deposit', { crypto })}
      depositHref={walletHref}
    />
  );
}
