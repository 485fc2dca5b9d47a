import type { OperatorConfirmLabels } from './OperatorConfirm.tsx';

// The administrators' money screens (sendouts, ledger, fees, audit log) are English for now
// (docs/decisions/167-admin-screens-in-english.md): their words live here, in one module, so a
// later translation replaces this file with message keys and touches no screen. Dates are UTC,
// written the same on the server and in the browser (no hydration difference between time zones).

export const ADMIN_TEXT = {
  confirm: {
    reason: 'Reason (kept in the audit log)',
    code: 'Authenticator code',
    confirm: 'Confirm',
    cancel: 'Cancel',
    codeHint: 'The 6 digits your authenticator app shows now, or one of your recovery codes.',
  } satisfies OperatorConfirmLabels,
  error: {
    network: 'The server did not answer. Check your connection and try again.',
    generic: 'Something went wrong. Try again.',
    stateConflict: 'This sendout changed meanwhile: ',
  },
  more: 'More',
  loading: 'Loading…',
  none: 'Nothing here.',
  sendouts: {
    title: 'Sendouts',
    tabs: { waiting: 'Waiting', failed: 'Failed' },
    columns: { id: 'Sendout', person: 'Person', amount: 'Amount', address: 'Address', state: 'State', age: 'Age' },
    states: {
      unclaimed: 'unclaimed',
      in_flight: 'in flight',
      stuck: 'stuck',
      broadcast: 'broadcast',
      confirmed: 'confirmed',
      failed: 'failed',
    } as Record<string, string>,
    copy: 'Copy',
    copied: 'Copied',
    copyLabel: (id: string) => `Copy the address of ${id}`,
    retry: 'Retry',
    cancel: 'Cancel sendout',
    retryTitle: (id: string) => `Retry sendout ${id}`,
    cancelTitle: (id: string) => `Cancel sendout ${id}`,
    retryNote: 'The claim is released and the chain job broadcasts this sendout again.',
    cancelNote: 'The amount and fee go back to the person’s wallet, once; the sendout fails.',
    checkNode:
      'Check the node first (bitcoin-cli gettransaction, the wallet’s history): a sendout the node did send must never be cancelled or retried.',
    done: {
      retry: (id: string) => `${id} released: it will be sent again.`,
      cancel: (id: string) => `${id} cancelled: the hold went back to the wallet.`,
    },
    empty: { waiting: 'No sendout is waiting.', failed: 'No sendout has failed.' },
    confirmations: (n: number, of: number) => `${n} of ${of} confirmations`,
  },
  ledger: {
    title: 'Ledger',
    verify: 'Verify now',
    verifying: 'Verifying…',
    verifyNote:
      'Runs ledger:verify: every invariant of the double-entry ledger. It changes nothing and is written to the audit log.',
    last: 'Last verification',
    never: 'The ledger has not been verified yet.',
    ok: 'OK: every invariant holds',
    failed: 'Failed',
    when: 'When',
    by: 'By',
    transactions: 'Transactions',
    accounts: 'Accounts',
    owed: 'Owed to people',
    violations: 'What was found',
    noViolations: 'Nothing.',
  },
  fees: {
    title: 'Fee income',
    from: 'From',
    to: 'To',
    show: 'Show',
    rangeHint: 'UTC days, both included; at most 366 days. By default the last 30 days.',
    chart: 'Fee income per day',
    chartLoading: 'The chart loads when it comes into view.',
    chartFailed: 'The chart could not load; the table below has every figure.',
    table: 'Fee income per day, currency and payment-method group',
    date: 'Day',
    currency: 'Currency',
    group: 'Payment-method group',
    amount: 'Income',
    totals: 'Totals',
    empty: 'No fee income in this range.',
  },
  audit: {
    title: 'Audit log',
    filters: 'Filter',
    operator: 'Operator',
    operatorHint: 'usr_… or cli',
    target: 'Target',
    targetHint: 'usr_…, chn_… or a trade id',
    action: 'Action',
    actionHint: 'e.g. ban, sendout.cancel, ledger.verify',
    apply: 'Apply',
    clear: 'Clear',
    columns: {
      when: 'When',
      operator: 'Operator',
      action: 'Action',
      target: 'Target',
      reason: 'Reason',
      request: 'Request id',
    },
    refused: 'refused',
    newer: 'Newer',
    older: 'Older',
    empty: 'No row matches.',
  },
} as const;

const DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** Unix ms as "29 Nov 2026, 17:55 UTC"; a dash for none. */
export function utcTime(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '—' : `${DATE_TIME.format(ms)} UTC`;
}

/** How long ago, coarse: "45 s", "12 min", "3 h", "2 d". */
export function ageOf(ms: number, now: number): string {
  const seconds = Math.max(0, Math.floor((now - ms) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** An address or id cut in the middle, its ends kept: what people compare. */
export function shortened(text: string, keep = 8): string {
  return text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep)}`;
}
