import { nameIssue, normalizeName } from '../../../src/lib/shared/person-name.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { CHECK_KINDS, type Check, checkView, currentDocuments } from './documents.ts';
import { statusOf } from './summary.ts';
import type { VerificationDeps } from './types.ts';

const NAME_MESSAGES = {
  name_required: 'Enter your full name as it is written on your identity document.',
  name_invalid: 'Enter your full name in letters, as it is written on your identity document.',
} as const;

/** The identity's full name, checked; the moderator compares it with the document. */
function checkedFullName(fullName: string | undefined): string {
  const key = nameIssue(fullName ?? '');
  if (!key) return normalizeName(fullName ?? '');
  const message = NAME_MESSAGES[key];
  const issue = { field: 'full_name', message, key: `verification_${key}` };
  throw new AppError('ERROR_INPUT_VALIDATION', message, { ...issue, details: [issue] });
}

/**
 * Sends the uploaded documents of a check to review: uploaded → pending. The identity comes with
 * the full name as on the document: once a moderator approves it, it is the person's verified name.
 */
export async function submitCheck(
  deps: VerificationDeps,
  ctx: PersonContext,
  { check, fullName }: { check: Check; fullName?: string | undefined },
) {
  const { repo, now } = deps;
  const userId = ctx.auth.user.id;
  await immediate(repo.db, async () => {
    const view = checkView(check, false, await currentDocuments(repo, userId));
    if (!view.canSubmit) {
      const message =
        check === 'identity'
          ? 'Upload the front of your identity document and a selfie first.'
          : 'Upload your proof of address first.';
      const key = `verification_submit_${check}`;
      throw new AppError('ERROR_INPUT_VALIDATION', message, {
        field: 'check',
        key,
        details: [{ field: 'check', message, key }],
      });
    }
    // The documents first, then the name that goes with them.
    const name = check === 'identity' ? checkedFullName(fullName) : undefined;
    await repo.submit(userId, CHECK_KINDS[check], now());
    if (name !== undefined) await repo.setFullName(userId, name);
  });
  return statusOf(deps, userId);
}
