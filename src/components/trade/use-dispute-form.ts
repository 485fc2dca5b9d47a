import { useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import type { TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { useTradePost } from './use-trade-post.ts';

// The dispute form's state (spec sections 3 and 7): the reason, the text, and sending them (both
// are required); the server's answer replaces the trade.

export function useDisputeForm(trade: TradeView, t: T, onTrade: (trade: TradeView) => void) {
  const [reason, setReason] = useState('');
  const [text, setText] = useState('');
  const { state, error, fail, send } = useTradePost(t, onTrade);

  const submit = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    if (!reason || !text.trim()) {
      fail(t('trade.dispute.incomplete'));
      return;
    }
    await send(() =>
      apiPost<TradeView>(`/rest/v1/trade/${trade.hash}/dispute`, {
        dispute_reason_id: reason,
        dispute_reason_text: text,
      }),
    );
  };

  return { reason, setReason, text, setText, state, error, submit };
}

export type DisputeFormState = ReturnType<typeof useDisputeForm>;
