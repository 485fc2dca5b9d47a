import { useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { TRADE_ATTACHMENT_MAX_FILES } from '../../lib/shared/trade-attachments.ts';
import type { TradeMessageView, TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { sendFiles, uploadError } from './upload.ts';

// The chat composer's state (spec section 2): the text, the moderators-only option, sending text
// or files, and what went wrong.

export function useChatComposer(trade: TradeView, t: T, onSent: (messages: TradeMessageView[]) => void) {
  const [text, setText] = useState('');
  const [forModerator, setForModerator] = useState(false);
  const [state, setState] = useState<'initial' | 'posting' | 'error'>('initial');
  const [error, setError] = useState('');

  const post = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    if (!text.trim() || state === 'posting') return;
    setState('posting');
    setError('');
    const result = await apiPost<TradeMessageView>(`/rest/v1/trade/${trade.hash}/messages`, {
      text,
      is_for_moderator: forModerator ? 1 : 0,
    });
    if (result.ok && result.data) {
      setText('');
      setState('initial');
      onSent([result.data]);
      return;
    }
    setError(result.errors[0]?.message || t('trade.chat.failed'));
    setState('error');
  };

  const attach = async (files: File[]) => {
    if (files.length === 0) return;
    if (files.length > TRADE_ATTACHMENT_MAX_FILES) {
      setError(t('trade.upload.tooMany', { max: TRADE_ATTACHMENT_MAX_FILES }));
      setState('error');
      return;
    }
    setState('posting');
    setError('');
    const result = await sendFiles(trade.hash, files, forModerator);
    if (result.ok && result.data) {
      setState('initial');
      onSent(result.data);
      return;
    }
    setError(uploadError(result, t));
    setState('error');
  };

  return { text, setText, forModerator, setForModerator, state, error, post, attach };
}

export type ChatComposerState = ReturnType<typeof useChatComposer>;
