import { TRADE_ATTACHMENT_ACCEPT } from '../../lib/shared/trade-attachments.ts';
import type { T } from './ui.tsx';
import type { ChatComposerState } from './use-chat-composer.ts';

// The chat's form: the text (Enter sends, Shift+Enter breaks the line), files, the moderators-only
// option and what went wrong.

export function ChatComposer({
  id,
  t,
  moderator,
  composer,
}: {
  id: string;
  t: T;
  moderator: boolean;
  composer: ChatComposerState;
}) {
  const { text, state, post } = composer;
  return (
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
        onChange={(event) => composer.setText(event.target.value)}
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
              void composer.attach(files);
            }}
          />
        </label>
        <label className="checkbox trade-for-moderator">
          <input
            type="checkbox"
            checked={composer.forModerator}
            onChange={(event) => composer.setForModerator(event.target.checked)}
          />
          <span>{t(moderator ? 'trade.chat.moderatorsOnlyNote' : 'trade.chat.toModerators')}</span>
        </label>
        <button type="submit" className="btn btn-primary" disabled={state === 'posting' || !text.trim()}>
          {t('trade.chat.send')}
        </button>
      </div>
      {state === 'error' && (
        <p className="field-error" role="alert" data-chat-error>
          {composer.error}
        </p>
      )}
    </form>
  );
}
