import { useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import type { TradeUploadView, TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { sendFiles, uploadError } from './upload.ts';

// One payment requirement's actions (spec sections 3 and 4): the responder uploads a proof (sent
// as a chat attachment, then linked to the requirement); the owner or a moderator approves or
// rejects it. Each answers with the trade's uploads.

export type Requirement = TradeView['flow']['state']['beforeRevealPaymentDetails'][number];

export function useRequirement(
  trade: TradeView,
  item: Requirement,
  t: T,
  onChanged: (uploads?: TradeUploadView[]) => void,
) {
  const [state, setState] = useState<'initial' | 'posting' | 'error'>('initial');
  const [error, setError] = useState('');

  const send = async (file: File) => {
    setState('posting');
    setError('');
    const sent = await sendFiles(trade.hash, [file], false);
    const url = sent.data?.[0]?.attachment?.url;
    if (!sent.ok || !url) {
      setError(uploadError(sent, t));
      setState('error');
      return;
    }
    const linked = await apiPost<TradeUploadView[]>(`/rest/v1/trade/${trade.hash}/upload`, {
      url,
      requirement: item.id,
    });
    if (!linked.ok) {
      setError(uploadError(linked, t));
      setState('error');
      return;
    }
    setState('initial');
    onChanged(linked.data);
  };

  const review = async (action: 'approve' | 'reject') => {
    setState('posting');
    setError('');
    const result = await apiPost<TradeUploadView[]>(`/rest/v1/trade/${trade.hash}/requirement`, {
      action,
      id: item.id,
    });
    if (!result.ok) {
      setError(result.errors[0]?.message || t('trade.action.failed'));
      setState('error');
      return;
    }
    setState('initial');
    onChanged(result.data);
  };

  return { state, error, send, review };
}
