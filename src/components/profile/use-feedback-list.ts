import { type MouseEvent, useRef, useState } from 'react';
import { type FeedbackPage, feedbackHref, fetchPage, type OfferTypeTab, type RatingFilter } from './feedback.ts';

// The feedback list's state: tab, filter, the list, the pages shown, loading and failed; choosing
// a tab or filter clears the list and loads it again, "more" appends the next page (the newest
// request wins).

export interface FeedbackInit {
  locale: string;
  username: string;
  initial: FeedbackPage;
  tab: OfferTypeTab;
  filter: RatingFilter;
  pages: number;
  base: string;
}

export function useFeedbackList(props: FeedbackInit) {
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

  const choose = (event: MouseEvent, nextTab: OfferTypeTab, nextFilter: RatingFilter) => {
    event.preventDefault();
    setTab(nextTab);
    setFilter(nextFilter);
    setPages(1);
    setList((before) => ({ ...before, data: [], nextPageUrl: null }));
    window.history.replaceState(null, '', feedbackHref(props.base, nextTab, nextFilter));
    const query = new URLSearchParams({ f_page: '1', offer_type: nextTab, feedback: nextFilter });
    void load(`/rest/v1/users/${encodeURIComponent(props.username)}/feedbacks?${query}`, false);
  };

  const more = (event: MouseEvent) => {
    event.preventDefault();
    if (!list.nextPageUrl || loading) return;
    setPages(pages + 1);
    void load(list.nextPageUrl, true);
  };

  return { tab, filter, list, pages, loading, failed, choose, more };
}

export type FeedbackState = ReturnType<typeof useFeedbackList>;
