import { useEffect, useId, useRef, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { TRADE_ATTACHMENT_ACCEPT, TRADE_ATTACHMENT_MAX_FILES } from '../../lib/shared/trade-attachments.ts';
import { ExternalLinkWarning } from './ExternalLinkWarning.tsx';
import { messageText, splitLinks, type TradeMessageView, type TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { sendFiles, uploadError } from './upload.ts';

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
  const [text, setText] = useState('');
  const [forModerator, setForModerator] = useState(false);
  const [state, setState] = useState<'initial' | 'posting' | 'error'>('initial');
  const [error, setError] = useState('');
  const [external, setExternal] = useState<string | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const moderator = trade.role === 'moderator';
  const time = new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit' });

  // New lines scroll into view, as chats do.
  const count = messages.length;
  useEffect(() => {
    const element = list.current;
    if (element && count > 0) element.scrollTop = element.scrollHeight;
  }, [count]);

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

  const host = typeof location === 'undefined' ? '' : location.host;
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
        {messages.map((message) => {
          const own = message.author === me && !message.isSystem;
          const kind = message.isSystem ? 'system' : own ? 'own' : message.role === 'moderator' ? 'moderator' : 'other';
          return (
            <li key={message.id} className={`trade-message trade-message-${kind}`} data-message-id={message.id}>
              {!message.isSystem && (
                <p className="trade-message-meta">
                  <span dir="ltr">{message.author}</span>
                  {message.role === 'moderator' && <span className="trade-chip">{t('trade.chat.moderator')}</span>}
                  {message.isForModerator && <span className="trade-chip">{t('trade.chat.moderatorOnly')}</span>}
                  <time dateTime={new Date(message.createdAt * 1000).toISOString()}>
                    {time.format(message.createdAt * 1000)}
                  </time>
                </p>
              )}
              {message.text && (
                <p className="trade-message-text" dir="auto" data-message-text>
                  {message.isSystem
                    ? messageText(message, t)
                    : splitLinks(message.text, host).map((part, i) =>
                        part.kind === 'text' ? (
                          part.text
                        ) : (
                          <a
                            // biome-ignore lint/suspicious/noArrayIndexKey: parts of one immutable text
                            key={i}
                            href={part.href}
                            rel="noopener noreferrer"
                            target="_blank"
                            data-external={part.external ? '' : undefined}
                            onClick={(event) => {
                              if (!part.external) return;
                              event.preventDefault();
                              setExternal(part.href);
                            }}
                          >
                            {part.text}
                          </a>
                        ),
                      )}
                </p>
              )}
              {message.attachment && <Attachment attachment={message.attachment} t={t} />}
            </li>
          );
        })}
      </ol>
      <form className="trade-composer" onSubmit={post}>
        <label className="visually-hidden" htmlFor={`${id}-text`}>
          {t('trade.chat.label')}
        </label>
        <textarea
          dir="auto"
          id={`${id}-text`}
          className="input"
          rows={2}
          maxLength={2000}
          value={text}
          placeholder={t('trade.chat.placeholder')}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) void post(event);
          }}
        />
        <div className="trade-composer-actions">
          <label className="btn btn-secondary trade-file" title={t('trade.chat.attach')}>
            {t('trade.chat.attach')}
            <input
              type="file"
              multiple
              accept={TRADE_ATTACHMENT_ACCEPT}
              className="visually-hidden"
              data-chat-files
              disabled={state === 'posting'}
              onChange={(event) => {
                const files = [...(event.target.files ?? [])];
                event.target.value = '';
                void attach(files);
              }}
            />
          </label>
          <label className="checkbox trade-for-moderator">
            <input type="checkbox" checked={forModerator} onChange={(event) => setForModerator(event.target.checked)} />
            <span>{t(moderator ? 'trade.chat.moderatorsOnlyNote' : 'trade.chat.toModerators')}</span>
          </label>
          <button type="submit" className="btn btn-primary" disabled={state === 'posting' || !text.trim()}>
            {t('trade.chat.send')}
          </button>
        </div>
        {state === 'error' && (
          <p className="field-error" role="alert" data-chat-error>
            {error}
          </p>
        )}
      </form>
      {external && <ExternalLinkWarning href={external} t={t} onClose={() => setExternal(null)} />}
    </section>
  );
}

function Attachment({ attachment, t }: { attachment: NonNullable<TradeMessageView['attachment']>; t: T }) {
  if (attachment.contentType.startsWith('image/')) {
    return (
      <a
        className="trade-attachment"
        href={attachment.url}
        target="_blank"
        rel="noopener"
        data-attachment={attachment.id}
      >
        <img src={attachment.url} alt={t('trade.chat.image')} loading="lazy" />
      </a>
    );
  }
  return (
    <a className="trade-attachment-file text-link" href={attachment.url} download data-attachment={attachment.id}>
      {t('trade.chat.pdf')}
    </a>
  );
}
