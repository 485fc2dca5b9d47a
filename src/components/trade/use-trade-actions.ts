import { useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import type { TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';

// The trade's buttons' state (spec section 4): which confirmation is open, mark paid and release
// (start, success, failed), cancel (loading, loaded, error), the second-factor code and the last
// error. Mark paid, release and cancel replace the trade with the server's answer.

export type Step = 'initial' | 'start' | 'success' | 'failed';
export type CancelStep = 'initial' | 'loading' | 'loaded' | 'error';
export type Asking = 'markPaid' | 'release' | 'cancel' | null;

export function useTradeActions(trade: TradeView, t: T, onTrade: (trade: TradeView) => void) {
  const [asking, setAsking] = useState<Asking>(null);
  const [paid, setPaid] = useState<Step>('initial');
  const [release, setRelease] = useState<Step>('initial');
  const [cancel, setCancel] = useState<CancelStep>('initial');
  const [code, setCode] = useState('');
  const [error, setError] = useState('');

  const markPaid = async () => {
    setPaid('start');
    setError('');
    const result = await apiPost<TradeView>(`/rest/v1/trade/${trade.hash}/paid`);
    setAsking(null);
    if (result.ok && result.data) {
      setPaid('success');
      onTrade(result.data);
    } else {
      setPaid('failed');
      setError(result.errors[0]?.message || t('trade.action.failed'));
    }
  };

  const doRelease = async () => {
    setRelease('start');
    setError('');
    const result = await apiPost<TradeView>(`/rest/v1/trade/${trade.hash}/release`, code ? { code } : {});
    if (result.ok && result.data) {
      setAsking(null);
      setRelease('success');
      onTrade(result.data);
      return;
    }
    setRelease('failed');
    // Spec section 8: a 400 shows the server's message (a wrong or missing code); anything else is generic.
    const message = result.status === 400 ? result.errors[0]?.message : undefined;
    setError(message || t('trade.release.failed'));
    if (result.status !== 400) setAsking(null);
  };

  const backFromRelease = () => {
    setAsking(null);
    setRelease('initial');
    setError('');
  };

  const doCancel = async () => {
    setCancel('loading');
    setError('');
    const result = await apiPost<TradeView>(`/rest/v1/trade/${trade.hash}/cancel`);
    setAsking(null);
    if (result.ok && result.data) {
      setCancel('loaded');
      onTrade(result.data);
    } else {
      setCancel('error');
      setError(result.errors[0]?.message || t('trade.action.failed'));
    }
  };

  return {
    asking,
    setAsking,
    paid,
    release,
    cancel,
    code,
    setCode,
    error,
    markPaid,
    doRelease,
    backFromRelease,
    doCancel,
  };
}

export type TradeActionsState = ReturnType<typeof useTradeActions>;
