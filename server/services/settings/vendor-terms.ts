import type { SessionService } from '../accounts/sessions.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { ClientInfo, SessionRow } from '../shared/account-types.ts';
import type { SettingsRepository } from './repository.ts';

// Spec section 6: vendors must accept the vendor terms (accept or decline). Accepting makes the
// person a vendor, declining stops it. Either is a change of privilege, so the session that asked
// is replaced by a new one, as at sign-in: a token planted before the change is worth nothing
// after it. Other devices keep their sessions; they read the flag from the user row per request.

export const VENDOR_TERMS_ACTIONS = ['accept', 'decline'] as const;
export type VendorTermsAction = (typeof VENDOR_TERMS_ACTIONS)[number];

const MESSAGES: Record<VendorTermsAction, string> = {
  accept: 'You accepted the vendor terms. You can now publish offers.',
  decline: 'You declined the vendor terms. Your account is not a vendor account.',
};

export function createVendorTermsService({ repo, sessions }: { repo: SettingsRepository; sessions: SessionService }) {
  return {
    async decide(
      ctx: PersonContext,
      { action, client }: { action: VendorTermsAction; client: ClientInfo },
    ): Promise<{ token: string; session: SessionRow; isVendor: boolean; message: string }> {
      const { auth } = ctx;
      const isVendor = action === 'accept';
      // Suspended accounts cannot trade; they do not gain the right to publish offers either.
      if (isVendor && auth.user.status !== 'active') {
        throw new AppError('FORBIDDEN', 'This account cannot become a vendor account now. Contact support.', {
          key: 'vendor_terms_forbidden',
        });
      }
      const renewed = await immediate(repo.db, async () => {
        await repo.setVendor(auth.user.id, isVendor);
        const created = await sessions.create(ctx, { userId: auth.user.id, client });
        await sessions.invalidate(ctx, { sessionId: auth.session.id });
        return created;
      });
      return { ...renewed, isVendor, message: MESSAGES[action] };
    },
  };
}

export type VendorTermsService = ReturnType<typeof createVendorTermsService>;
