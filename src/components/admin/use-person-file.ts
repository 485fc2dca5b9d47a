import { useState } from 'react';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import { failureMessage, useAdminFormat } from './use-admin-format.ts';

// A person's file as GET /rest/v1/operators/people/{id} answers it (server/services/operators/
// people.ts), and the actions on it: each sends the reason and code, then reads the file again so
// the new status shows from the server, not from a guess.

type Crypto = { minor: number; amount: string; currency: 'BTC' | 'USDT' };
type Fiat = { minor: number; amount: string; currency: string };

export type PersonStatus = 'active' | 'suspended' | 'banned';

export interface PersonTradeLine {
  hash: string;
  role: 'buyer' | 'seller';
  status: string;
  crypto: Crypto;
  fiat: Fiat;
  startedAt: number;
  endedAt: number | null;
}

export interface PersonFileData {
  person: {
    publicId: string;
    username: string;
    email: string;
    role: 'user' | 'moderator' | 'admin';
    status: PersonStatus;
    createdAt: number;
    lastSeenAt: number;
    roles: { vendor: boolean; merchant: boolean; kiosk: boolean; affiliate: boolean };
    twoFactor: boolean;
  };
  verification: {
    email: boolean;
    phone: boolean;
    identityVerifiedAt: number | null;
    addressVerifiedAt: number | null;
    fullName: string | null;
    level: number;
    limits: { windowDays: number; limitUsdCents: number; usedUsdCents: number; unusedUsdCents: number };
  };
  balances: (Crypto & { account: string })[];
  inEscrow: Crypto[];
  trades: PersonTradeLine[];
  disputes: (PersonTradeLine & { disputedAt: number | null; openedByThisPerson: boolean; resolved: boolean })[];
  /** Administrators only. */
  devices?: {
    browser: string | null;
    os: string | null;
    ip: string;
    city: string | null;
    country: string | null;
    status: string;
    createdAt: number;
  }[];
  sessions?: { publicId: string; ip: string; userAgent: string; createdAt: number; lastUsedAt: number }[];
  ledger?: (Crypto & {
    transactionId: string;
    kind: string;
    memo: string | null;
    account: string;
    createdAt: number;
  })[];
}

/** The console's paths for the actions (server/routes/operators.ts). */
export const PERSON_ACTIONS = [
  'suspend',
  'ban',
  'reinstate',
  'end-sessions',
  'reset-two-factor',
  'verify-identity',
  'verify-address',
] as const;
export type PersonAction = (typeof PERSON_ACTIONS)[number];

export function usePersonFile(initial: PersonFileData) {
  const { t, api } = useAdminFormat();
  const [file, setFile] = useState(initial);
  const [notice, setNotice] = useState<{ text: string; error: boolean }>();
  const path = `/rest/v1/operators/people/${initial.person.publicId}`;

  const reload = async (): Promise<void> => {
    const result = await apiGet<PersonFileData>(api(path));
    if (result.ok && result.data) setFile(result.data);
    else setNotice({ text: failureMessage(result, t), error: true });
  };

  /** Sends one action; an error string goes back to the dialog, which shows it in place. */
  const act = async (
    action: PersonAction,
    label: string,
    body: { reason: string; code: string; full_name?: string },
  ): Promise<{ error?: string }> => {
    const result = await apiPost<{ changed: boolean }>(api(`${path}/${action}`), body);
    if (!result.ok) return { error: failureMessage(result, t) };
    const changed = result.data?.changed !== false;
    setNotice({ text: t(changed ? 'admin.actions.done' : 'admin.actions.unchanged', { action: label }), error: false });
    await reload();
    return {};
  };

  return { file, notice, act };
}
