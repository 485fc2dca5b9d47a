import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { CODE_TTL_MS, hashCode, NUMBER_SEND_LIMITS, newCode, recentSends, sendRetryAfterMs } from './codes.ts';
import { fieldError, type PhoneDeps } from './deps.ts';
import { parsePhone } from './numbers.ts';
import { NO_NUMBER } from './repository.ts';

/** How the person asked to receive the code. */
export type CodeChannel = 'sms' | 'call';

export interface SendCodeInput {
  /** As typed; omitted to send a new code to the number already waiting for confirmation. */
  phone?: string | undefined;
  channel: CodeChannel;
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

/** The number typed, or for a resend the one waiting for confirmation. */
async function numberToSend({ repo }: PhoneDeps, userId: number, typed: string | undefined) {
  if (typed === undefined) {
    const current = await repo.phoneOf(userId);
    // A resend goes to the number waiting for confirmation, never to a verified one.
    if (!current || current.number === NO_NUMBER || current.verifiedAt !== null) {
      throw fieldError('phone', 'Enter the phone number to send the code to.');
    }
    typed = current.number;
  }
  const parsed = parsePhone(typed, await repo.countryIsoOf(userId));
  if (!parsed.ok) throw fieldError('phone', parsed.message);
  return parsed;
}

/** Stores the pending code when every limit allows it; one transaction. */
function decideSend(
  { repo }: PhoneDeps,
  userId: number,
  number: string,
  code: string,
  at: number,
): Promise<SendOutcome> {
  return immediate(repo.db, async (): Promise<SendOutcome> => {
    // Read again under the write lock: two sends racing must not both pass the limits.
    const row = await repo.phoneOf(userId);
    if (row && row.verifiedAt !== null && row.number !== NO_NUMBER)
      return { kind: 'verified', verifiedNumber: row.number };
    const sends = recentSends(row?.codesSentAt ?? [], at);
    const waitMs = sendRetryAfterMs(sends, at);
    if (waitMs > 0) return { kind: 'limited', waitMs };
    const numberWaitMs = sendRetryAfterMs(
      await repo.sendsToNumber(number, at - NUMBER_WINDOW_MS),
      at,
      NUMBER_SEND_LIMITS,
    );
    if (numberWaitMs > 0) return { kind: 'limited', waitMs: numberWaitMs };
    if (await repo.verifiedByAnother(number, userId)) {
      // Counted like a send, so this answer cannot be used to learn at speed which numbers
      // have accounts here. Any pending code stays valid.
      await repo.recordSend(userId, [...sends, at]);
      return { kind: 'taken' };
    }
    await repo.savePending({
      userId,
      number,
      codeHash: hashCode(code),
      codeExpiresAt: at + CODE_TTL_MS,
      codesSentAt: [...sends, at],
    });
    await repo.recordNumberSend(number, at, at - NUMBER_WINDOW_MS);
    return { kind: 'sent' };
  });
}

function throwUnlessSent(outcome: SendOutcome, number: string): void {
  switch (outcome.kind) {
    case 'verified':
      throw fieldError(
        'phone',
        number === outcome.verifiedNumber
          ? 'This number is already verified on your account.'
          : 'Remove your verified number before adding another one.',
      );
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
}

/** Answers spec section 7's `{ status, message }` for /account/send-phone-code and /auth/*-phone-code. */
export async function sendCode(
  deps: PhoneDeps,
  ctx: PersonContext,
  input: SendCodeInput,
): Promise<{ status: 'success'; message: string }> {
  const { user } = ctx.auth;
  const parsed = await numberToSend(deps, user.id, input.phone);
  const number = parsed.e164;
  const code = newCode();
  throwUnlessSent(await decideSend(deps, user.id, number, code, deps.now()), number);

  // After the commit: a code the person receives is always the one stored.
  await deps.sms.send({ to: number, text: codeText(code, input.channel) });
  return {
    status: 'success',
    message:
      input.channel === 'call'
        ? `Voice calls are not available yet, so we sent the code by SMS to ${parsed.international}. It is valid for ${TTL_MINUTES} minutes.`
        : `We sent a ${code.length}-digit code by SMS to ${parsed.international}. It is valid for ${TTL_MINUTES} minutes.`,
  };
}
