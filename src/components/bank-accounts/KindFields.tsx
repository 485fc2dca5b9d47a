import { Field, fieldAria } from '../form-field.tsx';
import { type FormProps, TextField } from './TextField.tsx';
import { refusalOf } from './use-bank-lookup.ts';

// The numbers that name an account, by the country's kind (docs/bank-accounts.md): an IBAN; a US
// account and routing number; or an account number, SWIFT/BIC and the bank's address. The bank
// line says what the lookups found, or offers the country's banks where they found none.

export function IbanFields({ t, id, form }: FormProps) {
  const lookup = form.lookup.ibanLookup;
  const refused = refusalOf(lookup, form.values.iban);
  return (
    <TextField
      id={id}
      form={form}
      name="iban"
      field="sepa.iban"
      label={t('bankAccounts.field.iban')}
      hint={t('bankAccounts.field.ibanHint')}
      error={refused}
      autoComplete="off"
      dir="ltr"
      autoCapitalize="characters"
      maxLength={64}
      required
    />
  );
}

export function RoutingFields({ t, id, form }: FormProps) {
  const lookup = form.lookup.routingLookup;
  const refused = refusalOf(lookup, form.values.routingNumber);
  return (
    <div className="ba-form-row">
      <TextField
        id={id}
        form={form}
        name="accountNumber"
        field="account_number"
        label={t('bankAccounts.field.accountNumber')}
        autoComplete="off"
        dir="ltr"
        inputMode="numeric"
        maxLength={64}
        required
      />
      <TextField
        id={id}
        form={form}
        name="routingNumber"
        field="routing_number"
        label={t('bankAccounts.field.routingNumber')}
        hint={t('bankAccounts.field.routingHint')}
        error={refused}
        autoComplete="off"
        dir="ltr"
        inputMode="numeric"
        maxLength={32}
        required
      />
    </div>
  );
}

export function SwiftFields({ t, id, form }: FormProps) {
  const text = (name: 'city' | 'address' | 'state' | 'zip' | 'residency', required = false) => (
    <TextField
      id={id}
      form={form}
      name={name}
      field={`swift.${name}`}
      label={t(`bankAccounts.field.${name}`)}
      maxLength={name === 'address' ? 400 : 200}
      required={required}
    />
  );
  return (
    <>
      <div className="ba-form-row">
        <TextField
          id={id}
          form={form}
          name="accountNumber"
          field="account_number"
          label={t('bankAccounts.field.accountNumber')}
          autoComplete="off"
          dir="ltr"
          maxLength={64}
          required
        />
        <TextField
          id={id}
          form={form}
          name="swiftCode"
          field="swift_code"
          label={t('bankAccounts.field.swift')}
          autoComplete="off"
          dir="ltr"
          autoCapitalize="characters"
          maxLength={32}
          required
        />
      </div>
      <BankLine t={t} id={`${id}-bank`} form={form} />
      <fieldset className="ba-group">
        <legend className="field-label">{t('bankAccounts.field.bankAddress')}</legend>
        <div className="ba-form-row">
          {text('city', true)}
          {text('zip')}
        </div>
        {text('address', true)}
        <div className="ba-form-row">
          {text('state')}
          {text('residency')}
        </div>
      </fieldset>
    </>
  );
}

/** The bank the lookups named (announced as it appears), or a choice of the country's banks. */
export function BankLine({ t, id, form }: FormProps) {
  const { namedBank, searching, bankChoices, bankRequired } = form.lookup;
  const error = form.errors.bank_id;
  if (bankChoices.length > 0) {
    return (
      <Field
        id={id}
        label={t(bankRequired ? 'bankAccounts.field.bank' : 'bankAccounts.field.bankOptional')}
        error={error}
      >
        <select
          {...fieldAria(id, error)}
          className="input"
          value={form.values.bankId}
          onChange={(e) => form.setText('bankId', e.target.value)}
          required={bankRequired}
        >
          <option value="">{t('bankAccounts.field.bankChoose')}</option>
          {bankChoices.map((bank) => (
            <option key={bank.id} value={bank.id}>
              {bank.name}
            </option>
          ))}
        </select>
      </Field>
    );
  }
  return (
    <div className="ba-bank" aria-live="polite" data-testid="bank-name">
      {searching && <span className="muted">{t('bankAccounts.field.bankSearching')}</span>}
      {!searching && namedBank && (
        <>
          <span className="field-label">{t('bankAccounts.field.bank')}</span> <strong>{namedBank.name}</strong>
          {namedBank.bic && <span className="muted ba-bic"> · {namedBank.bic}</span>}
        </>
      )}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
