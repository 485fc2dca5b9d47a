import { useMemo } from 'react';
import { tIsolated } from '../../lib/isolated.tsx';
import type { IslandMessages } from '../../lib/shared/i18n/island-messages.ts';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { type Locale, localizePath } from '../../lib/shared/i18n/locales.ts';
import { TabBar } from '../TabBar.tsx';
import {
  type FeedbackItem,
  type FeedbackPage,
  FILTERS,
  feedbackHref,
  type OfferTypeTab,
  type RatingFilter,
  TABS,
} from './feedback.ts';
import { type FeedbackState, useFeedbackList } from './use-feedback-list.ts';

// A person's feedback on their profile (spec section 7, users/{username}/feedbacks): tabs by who
// left it (from buyers: type sell; from sellers: type buy), a rating filter with the counts, and
// "show more". Spec section 4, "Lists": changing filter or tab clears the list and paging; a next
// page exists when the server gives a next-page url. Each control is a link to the page itself,
// which renders the same state without JavaScript.

/** The list's types, states and addresses, for the page that renders it. */
export * from './feedback.ts';

type Props = {
  locale: Locale;
  lang: string;
  username: string;
  messages: IslandMessages;
  initial: FeedbackPage;
  tab: OfferTypeTab;
  filter: RatingFilter;
  /** Pages already rendered. */
  pages: number;
  base: string;
};

type T = ReturnType<typeof islandTranslator>;

export default function FeedbackList(props: Props) {
  const t = useMemo(() => islandTranslator(props.messages), [props.messages]);
  const date = useMemo(() => new Intl.DateTimeFormat(props.lang, { dateStyle: 'medium' }), [props.lang]);
  const state = useFeedbackList(props);
  const { tab, filter, list, loading, failed } = state;
  return (
    <div className="feedback-list">
      <FeedbackTabs t={t} lang={props.lang} base={props.base} state={state} />
      {failed && (
        <p className="alert alert-error" role="alert">
          {t('profile.feedback.failed')}
        </p>
      )}
      {list.data.length === 0 && !loading && !failed && (
        <p className="muted" data-empty>
          {t('profile.feedback.empty')}
        </p>
      )}
      <ol className="feedback-items" aria-busy={loading || undefined}>
        {list.data.map((item) => (
          <FeedbackEntry key={item.id} t={t} date={date} locale={props.locale} username={props.username} item={item} />
        ))}
      </ol>
      {loading && <p className="muted">{t('profile.feedback.loading')}</p>}
      {!loading && list.nextPageUrl && (
        <a
          className="btn btn-secondary feedback-more"
          href={feedbackHref(props.base, tab, filter, state.pages + 1)}
          onClick={state.more}
          data-testid="feedback-more"
        >
          {t('profile.feedback.more')}
        </a>
      )}
    </div>
  );
}

/** Who left it (tabs) and the rating filter with its counts. */
function FeedbackTabs({ t, lang, base, state }: { t: T; lang: string; base: string; state: FeedbackState }) {
  const count = useMemo(() => new Intl.NumberFormat(lang), [lang]);
  const { tab, filter, list, choose } = state;
  const counts: Record<RatingFilter, number> = { all: list.total, positive: list.positive, negative: list.negative };
  return (
    <>
      <TabBar
        kind="tab"
        label={t('profile.feedback.tabs')}
        values={TABS}
        current={tab}
        href={(value) => feedbackHref(base, value, filter)}
        text={(value) => t(`profile.feedback.tab.${value}`)}
        onChoose={(event, value) => choose(event, value, filter)}
      />
      <TabBar
        kind="pill"
        label={t('profile.feedback.filters')}
        values={FILTERS}
        current={filter}
        href={(value) => feedbackHref(base, tab, value)}
        text={(value) => t(`profile.feedback.filter.${value}`, { count: count.format(counts[value]) })}
        onChoose={(event, value) => choose(event, tab, value)}
        extraClass={(value) => `profile-pill-${value}`}
      />
    </>
  );
}

function FeedbackEntry({
  t,
  date,
  locale,
  username,
  item,
}: {
  t: T;
  date: Intl.DateTimeFormat;
  locale: Locale;
  username: string;
  item: FeedbackItem;
}) {
  return (
    <li className="feedback-item" data-rating={item.rating} data-testid="feedback-item">
      <span className={`feedback-mark feedback-mark-${item.rating}`} aria-hidden="true">
        {item.rating === 'positive' ? '+' : '−'}
      </span>
      <div className="feedback-body">
        <p className="feedback-head">
          <a className="text-link" href={localizePath(locale, `/profile/${item.from.username}`)}>
            <bdi>{item.from.username}</bdi>
          </a>
          <span className="visually-hidden">{t(`profile.feedback.${item.rating}`)}</span>
          <span className="muted">
            {' · '}
            <bdi>{item.paymentMethod}</bdi> · {item.currency} ·{' '}
            <time dateTime={new Date(item.createdAt * 1000).toISOString()}>{date.format(item.createdAt * 1000)}</time>
          </span>
        </p>
        <p className="feedback-message" dir="auto">
          {item.message}
        </p>
        {item.reply && (
          <blockquote className="feedback-reply">
            <p className="muted">{tIsolated(t, 'profile.feedback.reply', { username })}</p>
            <p dir="auto">{item.reply}</p>
          </blockquote>
        )}
      </div>
    </li>
  );
}
