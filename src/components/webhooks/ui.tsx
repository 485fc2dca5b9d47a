import { Fragment, type ReactNode, useEffect, useState } from 'react';

// Small parts of the /webhooks screen: times in the reader's clock, messages with elements in
// their placeholders, and the webhook's status badge.

/** True once the island runs in the browser: server and first client render must agree. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(lang: string, utc: boolean): Intl.DateTimeFormat {
  const key = `${lang}|${utc}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, {
      dateStyle: 'medium',
      timeStyle: 'medium',
      ...(utc ? { timeZone: 'UTC' } : {}),
    });
    formats.set(key, format);
  }
  return format;
}

/**
 * A time (unix seconds) as the reader's clock shows it. The server knows no time zone, so the
 * server render and the hydration render both use UTC; the reader's zone follows right after.
 */
export function LocalTime({ seconds, lang }: { seconds: number; lang: string }) {
  const hydrated = useHydrated();
  const date = new Date(seconds * 1000);
  return <time dateTime={date.toISOString()}>{dateTimeFormat(lang, !hydrated).format(date)}</time>;
}

/** `template` with each `{name}` placeholder replaced by the element `parts[name]`. */
export function Rich({ template, parts }: { template: string; parts: Record<string, ReactNode> }) {
  const pieces = template.split(/\{(\w+)\}/g);
  return (
    <>
      {pieces.map((piece, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed message, never reordered
        <Fragment key={index}>{index % 2 === 1 ? (parts[piece] ?? `{${piece}}`) : piece}</Fragment>
      ))}
    </>
  );
}

export type ShownStatus = 'initial' | 'verification' | 'enabled' | 'disabled';

export function StatusBadge({ status, label }: { status: ShownStatus; label: string }) {
  return (
    <span className="badge wh-badge" data-status={status} data-testid="webhook-status">
      {label}
    </span>
  );
}
