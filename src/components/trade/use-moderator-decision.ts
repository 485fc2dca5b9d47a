import { useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import type { TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';

// A moderator's decision on a trade (spec section 2): which one is being confirmed, and sending it
// — the coins to the buyer or back to the seller, or reopening a finished trade as a dispute.

export type Decision = 'buyer' | 'seller' | 'reopen';

export function useModeratorDecision(trade: TradeView, t: T, onTrade: (trade: TradeView) => void) {
  const [asking, setAsking] = useState<Decision | null>(null);
  const [state, setState] = useState<'initial' | 'posting' | 'error'>('initial');
  const [error, setError] = useState('');

  const decide = async (decision: Decision) => {
    setState('posting');
    setError('');
    const result =
      decision === 'reopen'
        ? await apiPost<TradeView>(`/rest/v1/moderation/trades/${trade.hash}/reopen`)
        : await apiPost<TradeView>(`/rest/v1/moderation/trades/${trade.hash}/resolve`, { winner: decision });
    setAsking(null);
    if (result.ok && result.data) {
      setState('initial');
      onTrade(result.data);
      return;
    }
    setError(result.errors[0]?.message || t('trade.action.failed'));
    setState('error');
  };

  return { asking, setAsking, state, error, decide };
}
