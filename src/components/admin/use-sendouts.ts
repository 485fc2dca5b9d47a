import { useState } from 'react';
import { ADMIN_TEXT } from './admin-text.ts';
import { failureOf, operatorGet, operatorPost } from './use-operator-api.ts';

// The sendouts screen's state (GET/POST /rest/v1/operators/sendouts…, decision 152): the pages read
// so far of one list, "more" for the next 50, and retry or cancel through OperatorConfirm; after a
// change the list is read again from its first page, so what the screen shows is what is true now.

export type SendoutList = 'waiting' | 'failed';
export type SendoutAction = 'retry' | 'cancel';

export interface SendoutView {
  id: string;
  person: { publicId: string; username: string };
  network: string;
  address: string;
  minor: number;
  amount: string;
  currency: 'BTC' | 'USDT';
  fee: string;
  status: 'pending' | 'broadcast' | 'confirmed' | 'failed';
  broadcast: 'unclaimed' | 'in_flight' | 'stuck' | null;
  txid: string | null;
  confirmations: number;
  requiredConfirmations: number;
  failureReason: string | null;
  createdAt: number;
}

export interface SendoutsPage {
  items: SendoutView[];
  hasMore: boolean;
}

/** What an operator may do with one (the server has the last word: 409 otherwise). */
export function actionsOf(sendout: SendoutView): SendoutAction[] {
  if (sendout.status !== 'pending') return [];
  if (sendout.broadcast === 'stuck') return ['retry', 'cancel'];
  return sendout.broadcast === 'unclaimed' ? ['cancel'] : [];
}

/** The state a row shows: the broadcast step of a pending one, else its status. */
export const stateOf = (sendout: SendoutView): string => sendout.broadcast ?? sendout.status;

export function useSendouts(list: SendoutList, first: SendoutsPage, renderedAt: number) {
  const [items, setItems] = useState(first.items);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(first.hasMore);
  const [now, setNow] = useState(renderedAt);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();

  async function read(number: number): Promise<SendoutsPage | undefined> {
    setLoading(true);
    const result = await operatorGet<SendoutView[]>(`/sendouts?list=${list}&page=${number}`);
    setLoading(false);
    if (!result.ok || !result.data) {
      setError(failureOf(result));
      return undefined;
    }
    setError(undefined);
    setNow(Date.now());
    return { items: result.data, hasMore: Boolean(result.meta?.nextPageExist) };
  }

  async function more() {
    const next = await read(page + 1);
    if (!next) return;
    setItems((shown) => [...shown, ...next.items.filter((item) => !shown.some((s) => s.id === item.id))]);
    setHasMore(next.hasMore);
    setPage(page + 1);
  }

  async function refresh() {
    const fresh = await read(1);
    if (!fresh) return;
    setItems(fresh.items);
    setHasMore(fresh.hasMore);
    setPage(1);
  }

  /** OperatorConfirm's onConfirm: the change, then the list again (after a conflict too). */
  async function act(sendout: SendoutView, action: SendoutAction, input: { reason: string; code: string }) {
    setNotice(undefined);
    const answer = await operatorPost<SendoutView>(`/sendouts/${sendout.id}/${action}`, input);
    if (answer.code === 'SENDOUT_STATE_CONFLICT') {
      await refresh();
      return { error: `${ADMIN_TEXT.error.stateConflict}${answer.error ?? ''}` };
    }
    if (answer.error !== undefined) return { error: answer.error };
    setNotice(ADMIN_TEXT.sendouts.done[action](sendout.id));
    await refresh();
    return {};
  }

  return { items, hasMore, now, loading, error, notice, more, act };
}
