import { type FormEvent, useRef, useState } from 'react';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { WebhookEventName, WebhookView } from '../../lib/shared/webhooks.ts';
import { failureOf, messageOf, webhooksApi } from './api.ts';
import type { Announce, T } from './types.ts';
import type { ShownStatus } from './ui.tsx';

// The merchant's webhook on the screen (spec section 4 "Webhook": initial, verification, enabled,
// disabled). Saving first runs the challenge (verification), then saves; a failed challenge leaves
// the webhook disabled with the failed notice, unless another address is still enabled on the
// server (then that one keeps its badge and the notice says it still receives deliveries).
// Removing returns to initial with every event unchecked. Events toggle optimistically and
// revert when the API refuses.

export type UrlNotice =
  | { kind: 'failed'; message: string; status: number | null; stillEnabled: string | null }
  | { kind: 'saved' }
  | { kind: 'removed' }
  | null;

export function useWebhook(initial: WebhookView, locale: Locale, t: T, announce: Announce) {
  const [view, setView] = useState(initial);
  const [status, setStatus] = useState<ShownStatus>(initial.status);
  const [url, setUrl] = useState(initial.url ?? '');
  const [urlError, setUrlError] = useState<string | undefined>();
  const [notice, setNotice] = useState<UrlNotice>(null);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const typed = url.trim();
    if (!typed) {
      setUrlError(t('webhooks.url.required'));
      return;
    }
    setUrlError(undefined);
    setNotice(null);
    setStatus('verification');
    announce(t('webhooks.url.checking'));
    const verified = await webhooksApi.verify(locale, typed);
    const saved = verified.ok ? await webhooksApi.save(locale, typed) : failureOf<WebhookView>(verified);
    if (saved.ok && saved.data) {
      setView(saved.data);
      setStatus(saved.data.status);
      setUrl(saved.data.url ?? typed);
      setNotice({ kind: 'saved' });
      announce(t('webhooks.url.saved'));
      return;
    }
    const message = messageOf(saved, t('webhooks.url.failedGeneric'));
    // The answer's HTTP status says more where it is the reason (a non-2xx, a redirect).
    const code = ['status', 'redirect'].includes(String(saved.meta?.reason)) ? Number(saved.meta?.status) : 0;
    const stillEnabled = view.status === 'enabled' ? view.url : null;
    setStatus(stillEnabled ? 'enabled' : 'disabled');
    setNotice({ kind: 'failed', message, status: Number.isInteger(code) && code > 0 ? code : null, stillEnabled });
  };

  const remover = useRemove(locale, t, announce, (answer) => {
    setView(answer);
    setStatus('initial');
    setUrl('');
    setUrlError(undefined);
    setNotice({ kind: 'removed' });
  });

  const secret = useSecret(locale, t, announce, setView);
  const events = useEvents(locale, t, setView);

  return {
    view,
    status,
    url,
    setUrl: (value: string) => {
      setUrl(value);
      setUrlError(undefined);
    },
    urlError,
    notice,
    save,
    remover,
    secret,
    events,
  };
}

export type WebhookState = ReturnType<typeof useWebhook>;

function useRemove(locale: Locale, t: T, announce: Announce, removed: (view: WebhookView) => void) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    const answer = await webhooksApi.remove(locale);
    setBusy(false);
    setAsking(false);
    if (answer.ok && answer.data) {
      removed(answer.data);
      announce(t('webhooks.url.removed'));
    } else setError(messageOf(answer, t('webhooks.url.removeFailed')));
  };
  return {
    asking,
    busy,
    error,
    ask: () => setAsking(true),
    cancel: () => setAsking(false),
    confirm: () => void confirm(),
  };
}

export type RemoveState = ReturnType<typeof useRemove>;

function useSecret(locale: Locale, t: T, announce: Announce, setView: (view: WebhookView) => void) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [revealed, setRevealed] = useState(false);
  const rotate = async () => {
    setBusy(true);
    setError(null);
    const answer = await webhooksApi.rotate(locale);
    setBusy(false);
    setAsking(false);
    if (answer.ok && answer.data) {
      setView(answer.data);
      announce(t('webhooks.secret.rotated'));
    } else setError(messageOf(answer, t('webhooks.secret.rotateFailed')));
  };
  return {
    asking,
    busy,
    error,
    revealed,
    toggleReveal: () => setRevealed((shown) => !shown),
    ask: () => setAsking(true),
    cancel: () => setAsking(false),
    confirm: () => void rotate(),
  };
}

export type SecretState = ReturnType<typeof useSecret>;

type SetView = (update: (view: WebhookView) => WebhookView) => void;

const withEvent = (view: WebhookView, name: WebhookEventName, checked: boolean): WebhookView => ({
  ...view,
  events: view.events.map((event) => (event.name === name ? { ...event, checked } : event)),
});

/**
 * One event at a time: the box changes at once and the API is told; a refusal puts it back and
 * says why. While another box's change is on its way, an answer leaves that box as it is shown.
 */
function useEvents(locale: Locale, t: T, setView: SetView) {
  const [error, setError] = useState<{ name: WebhookEventName; message: string } | null>(null);
  const pending = useRef(new Map<WebhookEventName, number>());
  const count = (name: WebhookEventName, by: number) => {
    const next = (pending.current.get(name) ?? 0) + by;
    if (next > 0) pending.current.set(name, next);
    else pending.current.delete(name);
  };
  const toggle = async (name: WebhookEventName, checked: boolean) => {
    setError(null);
    setView((view) => withEvent(view, name, checked));
    count(name, 1);
    const answer = await webhooksApi.events(locale, [{ name, checked }]);
    count(name, -1);
    const fresh = answer.data;
    if (answer.ok && fresh) {
      setView((view) => ({
        ...fresh,
        events: fresh.events.map((event) => (pending.current.has(event.name) ? shown(view, event.name) : event)),
      }));
      return;
    }
    setView((view) => withEvent(view, name, !checked));
    setError({ name, message: messageOf(answer, t('webhooks.events.failed')) });
  };
  return { error, toggle: (name: WebhookEventName, checked: boolean) => void toggle(name, checked) };
}

const shown = (view: WebhookView, name: WebhookEventName) =>
  view.events.find((event) => event.name === name) ?? { name, checked: false };

export type EventsState = ReturnType<typeof useEvents>;
