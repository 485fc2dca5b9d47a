import { useEffect, useRef } from 'react';

/** A list that scrolls to its end when `count` lines are shown, as chats do. */
export function useScrollToEnd<E extends HTMLElement>(count: number) {
  const list = useRef<E>(null);
  useEffect(() => {
    const element = list.current;
    if (element && count > 0) element.scrollTop = element.scrollHeight;
  }, [count]);
  return list;
}
