import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { CHECK_KINDS, type Check, checkView, currentDocuments } from './documents.ts';
import { statusOf } from './summary.ts';
import type { VerificationDeps } from './types.ts';

/** Sends the uploaded documents of a check to review: uploaded → pending. */
export async function submitCheck(deps: VerificationDeps, ctx: PersonContext, { check }: { check: Check }) {
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
    await repo.submit(userId, CHECK_KINDS[check], now());
  });
  return statusOf(deps, userId);
}
