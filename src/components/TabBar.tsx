import type { MouseEvent } from 'react';

// A bar of links that choose one of a list's views: `tab` for what the list holds (the trades'
// and the feedback's sides), `pill` for a filter on it. Each is a real link to the page in that
// state, so it works without JavaScript; with it, `onChoose` changes the view in place.

interface TabBarProps<T extends string> {
  kind: 'tab' | 'pill';
  label: string;
  values: readonly T[];
  current: T;
  href: (value: T) => string;
  text: (value: T) => string;
  onChoose: (event: MouseEvent, value: T) => void;
  /** A class of one link's own besides `tab` or `pill`. */
  extraClass?: (value: T) => string;
}

export function TabBar<T extends string>({
  kind,
  label,
  values,
  current,
  href,
  text,
  onChoose,
  extraClass,
}: TabBarProps<T>) {
  const chosen = kind === 'tab' ? 'page' : 'true';
  return (
    <nav className={`${kind}-bar`} aria-label={label}>
      {values.map((value) => (
        <a
          key={value}
          href={href(value)}
          aria-current={value === current ? chosen : undefined}
          className={extraClass ? `${kind} ${extraClass(value)}` : kind}
          {...(kind === 'tab' ? { 'data-tab': value } : { 'data-filter': value })}
          onClick={(event) => onChoose(event, value)}
        >
          {text(value)}
        </a>
      ))}
    </nav>
  );
}
