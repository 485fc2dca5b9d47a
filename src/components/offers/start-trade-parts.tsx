import { useId } from 'react';
import { tIsolated } from '../../lib/isolated.tsx';
import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { StartTradeStep } from '../../lib/shared/start-trade-decision.ts';
import { useModalDialog } from '../../lib/use-modal-dialog.ts';
import type { AmountProblem } from './amounts.ts';
import type { StartTradeProps } from './StartTrade.tsx';

// The start-trade widget's parts: the reload notice, the predefined amounts, the two amount
// fields, the reasons the person cannot start, the failure and the warning modal.

type T = ReturnType<typeof islandTranslator>;

/** Where each reason sends the person to do something about it. */
const BLOCK_ACTIONS: Record<string, keyof StartTradeProps['links']> = {
  sign_in_required: 'signIn',
  email_not_verified: 'settings',
  vendor_no_coins: 'otherOffers',
  trading_limit: 'verification',
};

/** The message under the amount for a problem with it, or nothing. */
export function problemMessage(
  t: T,
  problem: AmountProblem | undefined,
  limits: { min: number; max: number },
  fiatText: (value: number) => string,
): string {
  if (problem === 'below_min') return t('offer.amount.belowMin', { amount: fiatText(limits.min) });
  if (problem === 'above_max') return t('offer.amount.aboveMax', { amount: fiatText(limits.max) });
  if (problem === 'not_predefined') return t('offer.amount.pickOne');
  if (problem === 'empty') return t('offer.amount.empty');
  return '';
}

/**
 * Why the maximum is below the offer's (issue 22): what the person's verification level has left,
 * with the way to raise it, or the vendor's cap on a first trade with a new partner.
 */
export function CapNote({
  t,
  limits,
  fiatText,
  verificationHref,
}: {
  t: T;
  limits: StartTradeProps['limits'];
  fiatText: (value: number) => string;
  verificationHref: string;
}) {
  if (limits.cappedBy === 'new_partner') {
    return (
      <p className="muted start-cap" data-cap="new_partner">
        {tIsolated(t, 'offer.cap.newPartner', { max: fiatText(limits.max) })}
      </p>
    );
  }
  if (limits.cappedBy !== 'verification') return null;
  return (
    <p className="muted start-cap" data-cap="verification">
      {t('offer.cap.verification', { level: limits.level ?? 0 })}{' '}
      <a className="text-link" href={verificationHref}>
        {t('offer.blocked.action.verification')}
      </a>
    </p>
  );
}

export function ReloadRequired({ t }: { t: T }) {
  return (
    <div className="start-trade card" data-tour="how-much">
      <p className="start-alert" role="alert">
        {t('offer.start.reloadRequired')}
      </p>
      <button type="button" className="btn btn-primary" onClick={() => location.reload()}>
        {t('offer.start.reload')}
      </button>
    </div>
  );
}

export function AmountChips({
  t,
  predefined,
  fiat,
  fiatText,
  onFiat,
}: {
  t: T;
  predefined: number[];
  fiat: string;
  fiatText: (value: number) => string;
  onFiat(text: string): void;
}) {
  return (
    <fieldset className="start-chips">
      <legend className="field-label">{t('offer.amount.choose')}</legend>
      {predefined.map((amount) => (
        <button
          key={amount}
          type="button"
          className="chip"
          aria-pressed={Number(fiat) === amount}
          onClick={() => onFiat(String(amount))}
        >
          {fiatText(amount)}
        </button>
      ))}
    </fieldset>
  );
}

/** The name on the account the person pays from (spec section 5 `payer_name`; decision 112). */
export function PayerNameField({
  t,
  id,
  trade,
}: {
  t: T;
  id: string;
  trade: {
    payerName: string;
    setPayerName(text: string): void;
    payerProblem: 'name_required' | 'name_invalid' | null;
    touched: boolean;
  };
}) {
  // Said once the person tried to start, like the amount's problem.
  const problem = trade.touched ? trade.payerProblem : null;
  return (
    <div className="field start-payer">
      <label htmlFor={`${id}-payer`}>{t('offer.payerName.label')}</label>
      <input
        id={`${id}-payer`}
        className="input"
        autoComplete="name"
        maxLength={100}
        value={trade.payerName}
        onChange={(e) => trade.setPayerName(e.target.value)}
        aria-invalid={problem !== null}
        aria-describedby={`${id}-payer-hint ${id}-payer-problem`}
      />
      <p id={`${id}-payer-hint`} className="field-hint">
        {t('offer.payerName.hint')}
      </p>
      <p id={`${id}-payer-problem`} className="field-error" role={problem ? 'alert' : undefined}>
        {problem ? t(`offer.payerName.${problem}`) : ''}
      </p>
    </div>
  );
}

export function AmountInputs({
  t,
  id,
  offer,
  fiat,
  crypto,
  invalid,
  onFiat,
  onCrypto,
  onFiatBlur,
}: {
  t: T;
  id: string;
  offer: { fiatCurrency: string; crypto: string; predefined: number[] };
  fiat: string;
  crypto: string;
  invalid: boolean;
  onFiat(text: string): void;
  onCrypto(text: string): void;
  onFiatBlur(): void;
}) {
  return (
    <div className="start-inputs">
      <div className="field">
        <label htmlFor={`${id}-fiat`}>{t('offer.amount.pay', { currency: offer.fiatCurrency })}</label>
        <div className="input-unit">
          <input
            id={`${id}-fiat`}
            className="input"
            inputMode="decimal"
            autoComplete="off"
            value={fiat}
            onChange={(e) => onFiat(e.target.value)}
            onBlur={onFiatBlur}
            aria-invalid={invalid}
            aria-describedby={`${id}-limits ${id}-problem`}
            readOnly={offer.predefined.length > 0}
          />
          <span aria-hidden="true">{offer.fiatCurrency}</span>
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-crypto`}>{t('offer.amount.receive', { crypto: offer.crypto })}</label>
        <div className="input-unit">
          <input
            id={`${id}-crypto`}
            className="input"
            inputMode="decimal"
            autoComplete="off"
            value={crypto}
            onChange={(e) => onCrypto(e.target.value)}
            readOnly={offer.predefined.length > 0}
          />
          <span aria-hidden="true">{offer.crypto}</span>
        </div>
      </div>
    </div>
  );
}

export function BlockList({
  t,
  blocks,
  links,
}: {
  t: T;
  blocks: StartTradeProps['blocks'];
  links: StartTradeProps['links'];
}) {
  return (
    <div className="start-blocks" role="status">
      <p className="start-blocks-title">{t('offer.blocked.title')}</p>
      <ul>
        {blocks.map((block) => {
          const link = BLOCK_ACTIONS[block.code];
          return (
            <li key={block.code} data-block={block.code}>
              {block.message}{' '}
              {link && (
                <a className="text-link" href={links[link]}>
                  {t(`offer.blocked.action.${link}`)}
                </a>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function FailedAlert({ t, errors }: { t: T; errors: string[] }) {
  return (
    <div className="start-alert alert-error" role="alert">
      {errors.length > 0 ? errors.map((message) => <p key={message}>{message}</p>) : t('offer.start.failed')}
    </div>
  );
}

export function WarningModal({
  step,
  t,
  values,
  onCancel,
  onConfirm,
}: {
  step: StartTradeStep;
  t: T;
  values: Record<string, string>;
  onCancel(): void;
  onConfirm(): void;
}) {
  const dialog = useModalDialog();
  const titleId = useId();
  return (
    <dialog
      ref={dialog}
      className="offer-modal"
      aria-labelledby={titleId}
      data-step={step}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId} className="h3">
        {t(`offer.warning.${step}.title`)}
      </h2>
      <p>{t(`offer.warning.${step}.text`, values)}</p>
      <div className="offer-modal-actions">
        <button type="button" className="btn btn-primary" onClick={onConfirm}>
          {t(`offer.warning.${step}.confirm`)}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          {t('offer.warning.cancel')}
        </button>
      </div>
    </dialog>
  );
}
