import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { SmsSender } from '../messaging/messaging.ts';
import {
  CODE_TTL_MS,
  codeMatches,
  hashCode,
  MAX_WRONG_TRIES,
  NUMBER_SEND_LIMITS,
  newCode,
  recentSends,
  sendRetryAfterMs,
} from './codes.ts';
import { parsePhone } from './numbers.ts';
import { NO_NUMBER, type PhoneRepository } from './repository.ts';

// Proving a phone number (spec sections 4 and 7): send a code, confirm it, remove the number.
// One account per verified number; sends are limited per user and per number (codes.ts).

/** How the person asked to receive the code. */
export type CodeChannel = 'sms' | 'call';

export interface PhoneDeps {
  repo: PhoneRepository;
  sms: SmsSender;
  now: () => number;
}

export interface SendCodeInput {
  /** As typed; omitted to send a new code to the number already waiting for confirmation. */
  phone?: string | undefined;
  channel: CodeChannel;
}

function fieldError(field: string, message: string): AppError {
  return new AppError('ERROR_INPUT_VALIDATION', message, { field, details: [{ field, message }] });
}

const TTL_MINUTES = CODE_TTL_MS / 60_000;
const NUMBER_WINDOW_MS = Math.max(...NUMBER_SEND_LIMITS.map((l) => l.windowMs));

function codeText(code: string, channel: CodeChannel): string {
  const body = `your Coinfair code is ${code}. It is valid for ${TTL_MINUTES} minutes. Never share it with anyone, not even Coinfair staff.`;
  // No voice provider is wired: a requested call arrives as a text that says so.
  return channel === 'call'
    ? `Coinfair: you asked for a voice call, but calls are not available yet, so here it is by text: ${body}`
    : `Coinfair: ${body}`;
}

type SendOutcome =
  | { kind: 'sent' }
  | { kind: 'verified'; verifiedNumber: string }
  | { kind: 'taken' }
  | { kind: 'limited'; waitMs: number };

/** A number counts once confirmed and still present (removal keeps the row for the send limits). */
export function isVerifiedPhone(row: { number: string; verifiedAt: number | null } | null | undefined): boolean {
  return row != null && row.verifiedAt !== null && row.number !== NO_NUMBER;
}

export function createPhoneService({ repo, sms, now }: PhoneDeps) {
  const verifiedError = (number: string, verifiedNumber: string) =>
    fieldError(
      'phone',
      number === verifiedNumber
        ? 'This number is already verified on your account.'
        : 'Remove your verified number before adding another one.',
    );

  return {
    /** Answers spec section 7's `{ status, message }` for /account/send-phone-code and /auth/*-phone-code. */
    async sendCode(ctx: PersonContext, input: SendCodeInput): Promise<{ status: 'success'; message: string }> {
      const { user } = ctx.auth;
      const current = repo.phoneOf(user.id);
      let typed = input.phone;
      if (typed === undefined) {
        // A resend goes to the number waiting for confirmation, never to a verified one.
        if (!current || current.number === NO_NUMBER || current.verifiedAt !== null) {
          throw fieldError('phone', 'Enter the phone number to send the code to.');
        }
        typed = current.number;
      }
      const parsed = parsePhone(typed, repo.countryIsoOf(user.id));
      if (!parsed.ok) throw fieldError('phone', parsed.message);
      const number = parsed.e164;

      const code = newCode();
      const at = now();
      const outcome = immediate(repo.db, (): SendOutcome => {
        // Read again under the write lock: two sends racing must not both pass the limits.
        const row = repo.phoneOf(user.id);
        if (row && row.verifiedAt !== null && row.number !== NO_NUMBER)
          return { kind: 'verified', verifiedNumber: row.number };
        const sends = recentSends(row?.codesSentAt ?? [], at);
        const waitMs = sendRetryAfterMs(sends, at);
        if (waitMs > 0) return { kind: 'limited', waitMs };
        const numberWaitMs = sendRetryAfterMs(
          repo.sendsToNumber(number, at - NUMBER_WINDOW_MS),
          at,
          NUMBER_SEND_LIMITS,
        );
        if (numberWaitMs > 0) return { kind: 'limited', waitMs: numberWaitMs };
        if (repo.verifiedByAnother(number, user.id)) {
          // Counted like a send, so this answer cannot be used to learn at speed which numbers
          // have accounts here. Any pending code stays valid.
          repo.recordSend(user.id, [...sends, at]);
          return { kind: 'taken' };
        }
        repo.savePending({
          userId: user.id,
          number,
          codeHash: hashCode(code),
          codeExpiresAt: at + CODE_TTL_MS,
          codesSentAt: [...sends, at],
        });
        repo.recordNumberSend(number, at, at - NUMBER_WINDOW_MS);
        return { kind: 'sent' };
      });

      switch (outcome.kind) {
        case 'verified':
          throw verifiedError(number, outcome.verifiedNumber);
        case 'taken':
          throw fieldError('phone', 'This number is already verified on another account.');
        case 'limited': {
          const minutes = Math.ceil(outcome.waitMs / 60_000);
          throw new AppError(
            'RATE_LIMITED',
            `Too many codes requested. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
            { retryAfterSeconds: outcome.waitMs / 1000 },
          );
        }
        case 'sent':
          break;
      }

      // After the commit: a code the person receives is always the one stored.
      await sms.send({ to: number, text: codeText(code, input.channel) });
      return {
        status: 'success',
        message:
          input.channel === 'call'
            ? `Voice calls are not available yet, so we sent the code by SMS to ${parsed.international}. It is valid for ${TTL_MINUTES} minutes.`
            : `We sent a ${code.length}-digit code by SMS to ${parsed.international}. It is valid for ${TTL_MINUTES} minutes.`,
      };
    },

    /** Marks the pending number verified when `phoneCode` is its code. */
    confirm(ctx: PersonContext, { phoneCode }: { phoneCode: string }): { phone: string } {
      const { user } = ctx.auth;
      const code = phoneCode.replace(/\s+/g, '');
      if (!/^\d{6}$/.test(code)) throw fieldError('phoneCode', 'Enter the 6-digit code from the message.');
      const at = now();
      // Decided inside the transaction, thrown outside it: a wrong try must be counted, and a
      // throw inside would roll the count back.
      const outcome = immediate(repo.db, () => {
        const row = repo.phoneOf(user.id);
        if (!row || row.number === NO_NUMBER || row.codeHash === null || row.codeExpiresAt === null) {
          return { kind: 'none' } as const;
        }
        if (row.codeExpiresAt <= at) {
          repo.clearCode(user.id);
          return { kind: 'expired' } as const;
        }
        if (!codeMatches(code, row.codeHash)) {
          const left = MAX_WRONG_TRIES - (row.codeAttempts + 1);
          if (left <= 0) repo.clearCode(user.id);
          else repo.countWrongTry(user.id);
          return { kind: 'wrong', left } as const;
        }
        if (repo.verifiedByAnother(row.number, user.id)) {
          repo.clearCode(user.id);
          return { kind: 'taken' } as const;
        }
        repo.markVerified(user.id, at);
        return { kind: 'verified', number: row.number } as const;
      });

      switch (outcome.kind) {
        case 'none':
          throw new AppError('TOKEN_INVALID', 'No code is waiting for confirmation. Request a new one.', {
            field: 'phoneCode',
          });
        case 'expired':
          throw new AppError('TOKEN_INVALID', 'This code has expired. Request a new one.', { field: 'phoneCode' });
        case 'wrong':
          throw fieldError(
            'phoneCode',
            outcome.left > 0
              ? `This code is not correct. ${outcome.left} ${outcome.left === 1 ? 'try' : 'tries'} left.`
              : 'This code is not correct, and it was the last try. Request a new code.',
          );
        case 'taken':
          throw fieldError('phone', 'This number has meanwhile been verified on another account.');
        case 'verified':
          return { phone: outcome.number };
      }
    },

    /** Removes the number, verified or pending. The send history stays while the limits need it. */
    reset(ctx: PersonContext): void {
      const { user } = ctx.auth;
      const at = now();
      immediate(repo.db, () => {
        const row = repo.phoneOf(user.id);
        if (!row) return;
        const sends = recentSends(row.codesSentAt, at);
        if (sends.length === 0) repo.deleteRow(user.id);
        else repo.forgetNumber(user.id, sends);
      });
    },
  };
}

export type PhoneService = ReturnType<typeof createPhoneService>;
