import { bindVerb, type ServiceContext } from '../context.ts';
import { decideDevice } from './decide.ts';
import { deviceFingerprint } from './fingerprint.ts';
import { mailReview } from './mail-review.ts';
import { recordSignIn } from './record-sign-in.ts';
import { reviewDevice } from './review.ts';
import type { DeviceClient, DeviceReviewDeps, DeviceReviewParts } from './types.ts';

// Device review (spec section 7, "castle/review-device"): a sign-in from a browser and network
// the account has not used before is recorded as pending and its owner gets a link to confirm or
// report it. Sign-in itself is not held up: the mail is a tripwire, and a report ends the
// sessions that device holds. City and country come from an offline database (geolocation.ts)
// and are written just after the sign-in's commit: the lookup may have to load its file first,
// which never happens inside the sign-in's transaction. One verb per file; this wires them.

export { REVIEW_TOKEN_TTL_MS } from './review-token.ts';
export type { DeviceClient, DeviceReviewDeps } from './types.ts';

/** The verbs with their deps bound: what callers see is `verb(ctx, input)`. */
export function createDeviceReviewService(deps: DeviceReviewDeps) {
  const parts: DeviceReviewParts = { ...deps, placing: new Map() };
  return {
    /** Inside the sign-in's transaction: the review token to mail after the commit, or undefined. */
    recordSignIn: bindVerb(parts, recordSignIn),
    /** After the commit: a mail server that is down must not undo a sign-in. */
    mailReview: bindVerb(parts, mailReview),
    /** The pending device, its country named in `locale`. */
    review: bindVerb(parts, reviewDevice),
    /** Confirms or reports a pending device, once; a report ends that device's sessions. */
    decide: bindVerb(parts, decideDevice),
    /** Whether the person ever signed in from this address, or from this browser on this network. */
    usedBy: (_ctx: ServiceContext, { userId, client }: { userId: number; client: DeviceClient }) =>
      parts.repo.usedFrom(userId, client.ip, deviceFingerprint(client.userAgent, client.ip)),
  };
}

export type DeviceReviewService = ReturnType<typeof createDeviceReviewService>;
