import { messageText, splitLinks, type TradeMessageView } from './trade-logic.ts';
import type { T } from './ui.tsx';

// One chat line (spec section 2): who wrote it and when, its text (links become anchors; those
// leaving the site go through the external-link warning; system lines in the reader's language)
// and its attachment.

type Message = TradeMessageView;

export function ChatMessage({
  message,
  me,
  t,
  time,
  host,
  onExternal,
}: {
  message: Message;
  me: string;
  t: T;
  time: Intl.DateTimeFormat;
  host: string;
  onExternal(href: string): void;
}) {
  const own = message.author === me && !message.isSystem;
  const kind = message.isSystem ? 'system' : own ? 'own' : message.role === 'moderator' ? 'moderator' : 'other';
  return (
    <li className={`trade-message trade-message-${kind}`} data-message-id={message.id}>
      {!message.isSystem && (
        <p className="trade-message-meta">
          <bdi className="trade-message-author">{message.author}</bdi>
          {message.role === 'moderator' && <span className="trade-chip">{t('trade.chat.moderator')}</span>}
          {message.isForModerator && <span className="trade-chip">{t('trade.chat.moderatorOnly')}</span>}
          <time dateTime={new Date(message.createdAt * 1000).toISOString()}>
            {time.format(message.createdAt * 1000)}
          </time>
        </p>
      )}
      {message.text && (
        <p className="trade-message-text" dir="auto" data-message-text>
          {message.isSystem ? (
            messageText(message, t)
          ) : (
            <LinkedText text={message.text} host={host} onExternal={onExternal} />
          )}
        </p>
      )}
      {message.attachment && <Attachment attachment={message.attachment} t={t} />}
    </li>
  );
}

/** A party's text as text nodes and anchors (never HTML); an external link asks first. */
function LinkedText({ text, host, onExternal }: { text: string; host: string; onExternal(href: string): void }) {
  return splitLinks(text, host).map((part, i) =>
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
          onExternal(part.href);
        }}
      >
        {part.text}
      </a>
    ),
  );
}

function Attachment({ attachment, t }: { attachment: NonNullable<Message['attachment']>; t: T }) {
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
