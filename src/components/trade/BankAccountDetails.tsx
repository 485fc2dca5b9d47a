import { useEffect, useRef, useState } from 'react';
import type { TradeBankAccountView } from '../../lib/shared/views/bank-accounts.ts';
import { type BankField, type BankLine, bankLines } from './bank-details.ts';
import type { T } from './ui.tsx';

// The account the seller shared into a bank-transfer trade, as both parties read it: one line per
// detail a transfer form asks for, each with a copy button, so nobody retypes an IBAN.

const COPIED_MS = 2000;
/** Read digit by digit against a banking app's form: monospaced, always left to right. */
const NUMBERS = new Set<BankField>(['iban', 'accountNumber', 'routingNumber', 'swiftCode']);

/** One detail with its copy button; without a clipboard (an insecure origin, a refused permission) the value is selected for the reader to copy. */
function BankLineItem({ line, t }: { line: BankLine; t: T }) {
  const [copied, setCopied] = useState(false);
  const value = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const label = t(`trade.bank.field.${line.field}`);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(line.copied);
      setCopied(true);
    } catch {
      if (value.current) document.getSelection()?.selectAllChildren(value.current);
    }
  };
  return (
    <div className="trade-bank-line" data-bank-field={line.field}>
      <dt>{label}</dt>
      <dd>
        <span
          ref={value}
          className={`trade-bank-value${NUMBERS.has(line.field) ? ' is-number' : ''}`}
          dir={NUMBERS.has(line.field) ? 'ltr' : 'auto'}
          data-bank-value
        >
          {line.shown}
        </span>
        <button
          type="button"
          className="btn btn-secondary btn-sm trade-bank-copy"
          onClick={() => void copy()}
          aria-label={copied ? undefined : t('trade.bank.copyField', { field: label })}
          data-copy={line.field}
          data-copied={copied || undefined}
        >
          <span aria-live="polite">{copied ? t('trade.bank.copied') : t('trade.bank.copy')}</span>
        </button>
      </dd>
    </div>
  );
}

export function BankAccountDetails({ account, t }: { account: TradeBankAccountView; t: T }) {
  return (
    <div className="trade-bank" data-bank-account={account.kind}>
      <h3 className="trade-subtitle">
        {t('trade.bank.title')}{' '}
        <span className="trade-chip">{t(account.isPersonal ? 'trade.bank.personal' : 'trade.bank.business')}</span>
      </h3>
      <dl className="trade-bank-lines">
        {bankLines(account).map((line) => (
          <BankLineItem key={line.field} line={line} t={t} />
        ))}
      </dl>
    </div>
  );
}
