import { useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import type { TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { useTradePost } from './use-trade-post.ts';

// A moderator's decision on a trade (spec section 2): which one is being confirmed, and sending it
// — the coins to the buyer or back to the seller, or reopening a finished trade as a dispute —
// and taking an open dispute (issue 24).

export type Decision = 'buyer' | 'seller' | 'reopen';

export function useModeratorDecision(trade: TradeView, t: T, onTrade: (trade: TradeView) => void) {
  const [asking, setAsking] = useState<Decision | null>(null);
  const { state, error, send } = useTradePost(t, onTrade);

  const decide = (decision: Decision) =>
    send(
      () =>
        decision === 'reopen'
          ? apiPost<TradeView>(`/rest/v1/moderation/trades/${trade.hash}/reopen`)
          : apiPost<TradeView>(`/rest/v1/moderation/trades/${trade.hash}/resolve`, { winner: decision }),
      () => setAsking(null),
    );

  /** Takes the open dispute: no confirmation, as it moves no coins and the moderator can still decide later. */
  const take = () => send(() => apiPost<TradeView>(`/rest/v1/moderation/trades/${trade.hash}/take`));

  return { asking, setAsking, state, error, decide, take };
}
