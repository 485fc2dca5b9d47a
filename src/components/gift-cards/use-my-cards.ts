import { useState } from 'react';
import { apiRequest } from '../../lib/api-client.ts';
import type { GiftCardView } from '../../lib/shared/views/gift-cards.ts';

// "My gift cards": the list, a new card put on top once saved, and deleting a free card after the
// reader confirms. Spec section 8: a failed delete is a danger notification with the server's
// message, or a generic text when there is none.

type T = (key: string, params?: Record<string, string | number>) => string;

export function useMyCards(initial: GiftCardView[], t: T) {
  const [cards, setCards] = useState(initial);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ kind: 'danger' | 'success'; text: string } | null>(null);

  const added = (card: GiftCardView) => {
    setCards((list) => [card, ...list]);
    setNotice(null);
  };

  const remove = async (id: string) => {
    setDeleting(id);
    setNotice(null);
    const result = await apiRequest<unknown>('DELETE', `/rest/v1/gift-cards/${encodeURIComponent(id)}`);
    setDeleting(null);
    setConfirming(null);
    if (result.ok) {
      setCards((list) => list.filter((card) => card.id !== id));
      setNotice({ kind: 'success', text: t('giftCards.delete.done') });
      return;
    }
    setNotice({ kind: 'danger', text: result.errors[0]?.message || t('giftCards.delete.failed') });
  };

  return { cards, added, confirming, setConfirming, deleting, remove, notice };
}
