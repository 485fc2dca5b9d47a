import type { ProfilesRepository } from './repository.ts';

export interface ProfilesDeps {
  repo: ProfilesRepository;
  now: () => number;
  /** Blocking changes whose offers a person sees: the offers service drops its cached searches. */
  onTrustChanged?: () => void | Promise<void>;
}

export const seconds = (ms: number) => Math.floor(ms / 1000);
