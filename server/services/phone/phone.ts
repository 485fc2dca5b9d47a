import { bindVerb, type PersonContext } from '../context.ts';
import { confirmPhone } from './confirm.ts';
import type { PhoneDeps } from './deps.ts';
import { NO_NUMBER } from './repository.ts';
import { resetPhone } from './reset.ts';
import { sendCode } from './send-code.ts';

// Proving a phone number (spec sections 4 and 7): send a code, confirm it, remove the number.
// One account per verified number; sends are limited per user and per number (codes.ts).
// One verb per file; this wires them to the area's deps.

export type { PhoneDeps } from './deps.ts';
export type { CodeChannel, SendCodeInput } from './send-code.ts';

/** A number counts once confirmed and still present (removal keeps the row for the send limits). */
export function isVerifiedPhone(row: { number: string; verifiedAt: number | null } | null | undefined): boolean {
  return row != null && row.verifiedAt !== null && row.number !== NO_NUMBER;
}

/** The verbs with the area's deps bound: what callers see is `verb(ctx, input)`. */
export function createPhoneService(deps: PhoneDeps) {
  return {
    sendCode: bindVerb(deps, sendCode),
    confirm: bindVerb(deps, confirmPhone),
    reset: (ctx: PersonContext): Promise<void> => resetPhone(deps, ctx),
  };
}

export type PhoneService = ReturnType<typeof createPhoneService>;
