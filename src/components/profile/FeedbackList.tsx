import { useMemo, useRef, useState } from 'react';
import type { IslandMessages } from '../../lib/shared/i18n/island-messages.ts';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { type Locale, localizePath } from '../../lib/shared/i18n/locales.ts';
import { TabBar } from '../TabBar.tsx';

// A person's feedback on their profile (spec section 7, users/{username}/feedbacks): tabs by who
// left it (from buyers: type sell; from sellers: type buy), a rating filter with the counts, and
// "show more". Spec section 4, "Lists": changing filter or tab clears the list and paging; a next
// page exists when the server gives a next-page url. Each control is a link to the page itself,
// which renders the same state without JavaScript.

export type OfferTypeTab = 'all' | 'sell' | 'buy';
export type RatingFilter = 'all' | 'positive' | 'negative';
export const TABS: readonly OfferTypeTab[] = ['all', 'sell', 'buy'];
export const FILTERS: readonly RatingFilter[] = ['all', 'positive', 'negative'];

export interface FeedbackItem {
  id: string;
  type: 'buy' | 'sell';
  rating: 'positive' | 'negative';
  message: string;
  reply: string | null;
  from: { username: string; avatarUrl: string | null };
  paymentMethod: string;
  currency: string;
  createdAt: number;
}

export interface FeedbackPage {
  total: number;
  positive: number;
  negative: number;
  data: FeedbackItem[];
  nextPageUrl: string | null;
}

/** The profile page's address for a list state (`f_page`: pages shown, without JavaScript). */
export function feedbackHref(base: string, tab: OfferTypeTab, filter: RatingFilter, pages = 1): string {
  const query = new URLSearchParams({ offer_type: tab, feedback: filter });
  if (pages > 1) query.set('f_page', String(pages));
  return `${base}?${query}#feedback`;
}

/** The list is the answer's body itself (spec section 7), not its `data`: read it whole. */
async function fetchPage(url: string): Promise<FeedbackPage | undefined> {
  try {
    const response = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    return response.ok ? ((await response.json()) as FeedbackPage) : undefined;
  } catch {
    return undefined;
  }
}

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

export default function FeedbackList(props: Props) {
  const t = useMemo(() => islandTranslator(props.messages), [props.messages]);
  const date = useMemo(() => new Intl.DateTimeFormat(props.lang, { dateStyle: 'medium' }), [props.lang]);
  const count = useMemo(() => new Intl.NumberFormat(props.lang), [props.lang]);
  const [tab, setTab] = useState(props.tab);
  const [filter, setFilter] = useState(props.filter);
  const [list, setList] = useState(props.initial);
  const [pages, setPages] = useState(props.pages);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const request = useRef(0);

  const load = async (url: string, append: boolean) => {
    const id = ++request.current;
    setLoading(true);
    setFailed(false);
    const page = await fetchPage(`${url}${url.includes('?') ? '&' : '?'}locale=${props.locale}`);
    if (id !== request.current) return;
    setLoading(false);
    if (!page) {
      setFailed(true);
      return;
    }
    setList((before) => (append ? { ...page, data: [...before.data, ...page.data] } : page));
  };

  const choose = (event: React.MouseEvent, nextTab: OfferTypeTab, nextFilter: RatingFilter) => {
    event.preventDefault();
    setTab(nextTab);
    setFilter(nextFilter);
    setPages(1);
    setList((before) => ({ ...before, data: [], nextPageUrl: null }));
    window.history.replaceState(null, '', feedbackHref(props.base, nextTab, nextFilter));
    const query = new URLSearchParams({ f_page: '1', offer_type: nextTab, feedback: nextFilter });
    void load(`/rest/v1/users/${encodeURIComponent(props.username)}/feedbacks?${query}`, false);
  };

  const more = (event: React.MouseEvent) => {
    event.preventDefault();
    if (!list.nextPageUrl || loading) return;
    setPages(pages + 1);
    void load(list.nextPageUrl, true);
  };

  const counts: Record<RatingFilter, number> = { all: list.total, positive: list.positive, negative: list.negative };

  return (
    <div className="feedback-list">
      <TabBar
        kind="tab"
        label={t('profile.feedback.tabs')}
        values={TABS}
        current={tab}
        href={(value) => feedbackHref(props.base, value, filter)}
        text={(value) => t(`profile.feedback.tab.${value}`)}
        onChoose={(event, value) => choose(event, value, filter)}
      />
      <TabBar
        kind="pill"
        label={t('profile.feedback.filters')}
        values={FILTERS}
        current={filter}
        href={(value) => feedbackHref(props.base, tab, value)}
        text={(value) => t(`profile.feedback.filter.${value}`, { count: count.format(counts[value]) })}
        onChoose={(event, value) => choose(event, tab, value)}
        extraClass={(value) => `profile-pill-${value}`}
      />
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
          <li key={item.id} className="feedback-item" data-rating={item.rating} data-testid="feedback-item">
            <span className={`feedback-mark feedback-mark-${item.rating}`} aria-hidden="true">
              {item.rating === 'positive' ? '+' : '−'}
            </span>
            <div className="feedback-body">
              <p className="feedback-head">
                <a className="text-link" href={localizePath(props.locale, `/profile/${item.from.username}`)}>
                  {item.from.username}
                </a>
                <span className="visually-hidden">{t(`profile.feedback.${item.rating}`)}</span>
                <span className="muted">
                  {' · '}
                  {item.paymentMethod} · {item.currency} ·{' '}
                  <time dateTime={new Date(item.createdAt * 1000).toISOString()}>
                    {date.format(item.createdAt * 1000)}
                  </time>
                </span>
              </p>
              <p className="feedback-message">{item.message}</p>
              {item.reply && (
                <blockquote className="feedback-reply">
                  <p className="muted">{t('profile.feedback.reply', { username: props.username })}</p>
                  <p>{item.reply}</p>
                </blockquote>
              )}
            </div>
          </li>
        ))}
      </ol>
      {loading && <p className="muted">{t('profile.feedback.loading')}</p>}
      {!loading && list.nextPageUrl && (
        <a
          className="btn btn-secondary feedback-more"
          href={feedbackHref(props.base, tab, filter, pages + 1)}
          onClick={more}
          data-testid="feedback-more"
        >
          {t('profile.feedback.more')}
        </a>
      )}
    </div>
  );
}
