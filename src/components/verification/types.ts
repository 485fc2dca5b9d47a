import type { VerificationService } from '../../../server/services/verification/verification.ts';

// What the verification pages read from the API (GET /rest/v1/verification and the queue).

export type VerificationStatus = ReturnType<VerificationService['status']>;
export type DocumentView = NonNullable<VerificationStatus['identity']['documents']['id_front']>;
export type CheckView = VerificationStatus['identity'];
export type QueueItem = ReturnType<VerificationService['queue']>[number];
