import type { SessionRow, UserRow } from '../accounts/repository.ts';
import type { SessionService } from '../accounts/sessions.ts';
import { AppError } from '../errors.ts';
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
    decide(
      auth: { user: UserRow; session: SessionRow },
      action: VendorTermsAction,
      client: { ip: string; userAgent: string },
    ): { token: string; session: SessionRow; isVendor: boolean; message: string } {
      const isVendor = action === 'accept';
      // Suspended accounts cannot trade; they do not gain the right to publish offers either.
      if (isVendor && auth.user.status !== 'active') {
        throw new AppError('FORBIDDEN', 'This account cannot become a vendor account now. Contact support.', {
          key: 'vendor_terms_forbidden',
        });
      }
      const renewed = repo.db.transaction(
        () => {
          repo.setVendor(auth.user.id, isVendor);
          const created = sessions.create(auth.user.id, client);
          sessions.invalidate(auth.session.id);
          return created;
        },
        { behavior: 'immediate' },
      );
      return { ...renewed, isVendor, message: MESSAGES[action] };
    },
  };
}

export type VendorTermsService = ReturnType<typeof createVendorTermsService>;
