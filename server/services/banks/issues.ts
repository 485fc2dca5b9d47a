import type { FieldIssue } from '../errors.ts';

// The detail codes of a bank account's validation error (spec section 5 "Bank transfer required
// fields"; docs/bank-accounts.md). Each detail's `key` is its code and the translation key of its
// message under `errors.` in locales/*.json: the spec's four keys for empty fields, its server
// codes, and three of ours for what the spec leaves to "any other code".

export const ISSUE_MESSAGES = {
  'js.bank_transfers.error_empty_account_number': 'Enter the account number.',
  'js.bank_transfers.error_empty_holder': "Enter the account holder's name.",
  'js.bank_transfers.error_empty_routing_number': 'Enter the routing number.',
  'js.bank_transfers.bank_is_required': 'Choose the bank.',
  not_correct_length: 'This has the wrong number of characters.',
  non_unique: 'You have saved this account already.',
  not_exist: 'We do not know this one. Choose from the list.',
  country_doesnt_match: "This does not match the account's country.",
  iban_dont_math_country: 'This IBAN belongs to another country than the one chosen.',
  swift_dont_match_iban: 'This SWIFT/BIC code does not match the IBAN.',
  required: 'This field is required.',
  invalid_format: 'This is not written the way it should be.',
  invalid_checksum: 'This number has a typo: its check digits are wrong.',
} as const;

export type IssueCode = keyof typeof ISSUE_MESSAGES;
export type Issue = FieldIssue & { key: IssueCode };

export const issue = (field: string, key: IssueCode): Issue => ({ field, message: ISSUE_MESSAGES[key], key });
