import type { AuthState } from '../context.ts';
import { AppError, invalidInput, notFound } from '../errors.ts';
import type { OffersCatalogue } from './catalogue.ts';
import { type OfferInput, readOfferInput } from './offer-input.ts';
import type { OfferRow, OffersRepository } from './repository.ts';

// What a vendor's writes check first: that they may publish, that the offer is theirs, that the
// offer they send is whole.

export function requireVendor(auth: AuthState): void {
  if (!auth.user.isVendor) {
    throw new AppError('FORBIDDEN', 'Accept the vendor terms to publish offers.', { key: 'offer_vendor_required' });
  }
  if (auth.user.status !== 'active') {
    throw new AppError('FORBIDDEN', 'This account cannot publish offers now. Contact support.', {
      key: 'offer_account_restricted',
    });
  }
}

/** The caller's own offer, or 404 (another vendor's offer is not theirs to know about here). */
export async function ownOffer(repo: OffersRepository, auth: AuthState, hash: string): Promise<OfferRow> {
  const row = await repo.byHash(hash);
  if (!row || row.status === 'deleted' || row.ownerId !== auth.user.id) throw notFound('Offer', 'hash');
  return row;
}

/** The offer's columns, or 400 with every field that is wrong. */
export function checkedOffer(input: OfferInput, catalogue: OffersCatalogue) {
  const read = readOfferInput(input, catalogue);
  if (read.issues) throw invalidInput(read.issues);
  return read.values;
}
