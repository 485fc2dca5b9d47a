import { atom } from 'nanostores';

// The signed-in person as the page knows them, shared by the islands of a page. The page renders
// it on the server and hands it to its islands; the first island to render in the browser seeds
// this store with it (src/lib/use-seeded-store.ts). Never written on the server, where one module
// serves every request.

export interface CurrentUser {
  id: string;
  isIdVerified: boolean;
  isEmailVerified: boolean;
  isAllowedSendout: boolean;
  /** A second-factor code is asked for sendouts. */
  sendoutCode: boolean;
}

export const $currentUser = atom<CurrentUser | undefined>(undefined);
