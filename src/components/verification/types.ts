// What the verification pages read from the API (GET /rest/v1/verification and the queue): the
// shapes are the API's contract in src/lib/shared/views/verification.ts.

export type {
  CheckView,
  DocumentKind,
  DocumentView,
  VerificationQueueItem as QueueItem,
  VerificationStatusView as VerificationStatus,
} from '../../lib/shared/views/verification.ts';
