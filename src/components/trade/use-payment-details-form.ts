import { useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import type { TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { useTradePost } from './use-trade-post.ts';

// The seller's payment details form (decision 125): open at once while the trade has none, behind
// "Change" once it has some; saving sends the text and the server's trade replaces the page's
// (the buyer's page hears of it on the trade's channel).

export function usePaymentDetailsForm(trade: TradeView, t: T, onTrade: (trade: TradeView) => void) {
  const current = trade.paymentDetails ?? '';
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(current);
  const [saved, setSaved] = useState(false);
  const { state, error, fail, send } = useTradePost(t, (next) => {
    setEditing(false);
    setSaved(true);
    onTrade(next);
  });
  const open = editing || current.trim() === '';

  const edit = () => {
    setDraft(current);
    setSaved(false);
    setEditing(true);
  };

  const submit = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    if (!draft.trim()) {
      fail(t('trade.payment.form.empty'));
      return;
    }
    setSaved(false);
    await send(() => apiPost<TradeView>(`/rest/v1/trade/${trade.hash}/payment-details`, { payment_details: draft }));
  };

  return { open, editing, draft, setDraft, edit, close: () => setEditing(false), submit, state, error, saved };
}

export type PaymentDetailsFormState = ReturnType<typeof usePaymentDetailsForm>;
