import { useId, useState } from 'react';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { ChatComposer } from './ChatComposer.tsx';
import { ChatMessage } from './ChatMessage.tsx';
import { ExternalLinkWarning } from './ExternalLinkWarning.tsx';
import type { TradeMessageView, TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { useChatComposer } from './use-chat-composer.ts';
import { useScrollToEnd } from './use-scroll-to-end.ts';

// Trade messaging (spec section 2): the chat's history and live lines, rendered as text (links
// become anchors; those leaving the site go through the external-link warning), system lines in
// the reader's language, sending text and files, and the moderators-only option.

export function TradeChat({
  trade,
  messages,
  me,
  t,
  lang,
  live,
  onSent,
}: {
  trade: TradeView;
  messages: TradeMessageView[];
  me: string;
  t: T;
  lang: string;
  live: 'connecting' | 'live' | 'polling';
  onSent(messages: TradeMessageView[]): void;
}) {
  const id = useId();
  const composer = useChatComposer(trade, t, onSent);
  const [external, setExternal] = useState<string | null>(null);
  // New lines scroll into view, as chats do.
  const list = useScrollToEnd<HTMLOListElement>(messages.length);
  // The browser's time zone and host are unknown to the server: both renders use UTC and no host
  // (every link asks before leaving) until hydrated, then the reader's own (no mismatch, #418).
  const hydrated = useHydrated();
  const time = new Intl.DateTimeFormat(lang, {
    hour: '2-digit',
    minute: '2-digit',
    ...(hydrated ? {} : { timeZone: 'UTC' }),
  });
  const host = hydrated ? location.host : '';

  return (
    <section className="trade-chat card" aria-labelledby={`${id}-title`}>
      <div className="trade-chat-head">
        <h2 id={`${id}-title`} className="h4">
          {t('trade.chat.title')}
        </h2>
        <span className={`trade-live trade-live-${live}`} data-live={live}>
          {t(`trade.chat.live.${live}`)}
        </span>
      </div>
      <ol className="trade-messages" ref={list} aria-live="polite" aria-relevant="additions">
        {messages.map((message) => (
          <ChatMessage
            key={message.id}
            message={message}
            me={me}
            t={t}
            time={time}
            host={host}
            onExternal={setExternal}
          />
        ))}
      </ol>
      <ChatComposer id={id} t={t} moderator={trade.role === 'moderator'} composer={composer} />
      {external && <ExternalLinkWarning href={external} t={t} onClose={() => setExternal(null)} />}
    </section>
  );
}
