import { useState } from 'react';
import type { ApiResult } from '../../lib/api-client.ts';
import type { TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';

// One request that answers with the trade (a dispute, a moderator's decision): posting, then the
// server's trade replaces the page's, or the server's first message (else a generic one) shows.

export type TradePostState = 'initial' | 'posting' | 'error';

export function useTradePost(t: T, onTrade: (trade: TradeView) => void) {
  const [state, setState] = useState<TradePostState>('initial');
  const [error, setError] = useState('');

  const fail = (message: string) => {
    setError(message);
    setState('error');
  };

  /** Posts; `answered` runs once the server answered, before the trade or the error is shown. */
  const send = async (post: () => Promise<ApiResult<TradeView>>, answered?: () => void) => {
    setState('posting');
    setError('');
    const result = await post();
    answered?.();
    if (result.ok && result.data) {
      setState('initial');
      onTrade(result.data);
      return;
    }
    fail(result.errors[0]?.message || t('trade.action.failed'));
  };

  return { state, error, fail, send };
}
