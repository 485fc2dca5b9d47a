import type { TradeMessageView, TradeUploadView, TradeView } from '../../lib/shared/views/trades.ts';

// The trade page's rules without React (unit-tested in tests/unit/trade-logic.test.ts): links in
// chat text, which of them leave the site, merging chat lines that arrive twice (history and
// socket), and whether a fresher trade may replace the shown one.

export type { TradeMessageView, TradeUploadView, TradeView };

export interface DisputeReasonOption {
  id: string;
  title: string;
  roles: readonly string[];
}

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string; external: boolean };

/** http(s) addresses and bare www. ones, up to the next space; closing punctuation stays text. */
const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;
const TRAILING = /[.,;:!?)\]}»”’]+$/;

/** Splits chat text into plain text and links (rendered as text nodes and anchors, never HTML). */
export function splitLinks(text: string, host: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const raw = match[0];
    const trail = TRAILING.exec(raw)?.[0] ?? '';
    const shown = raw.slice(0, raw.length - trail.length);
    const start = match.index ?? 0;
    const href = /^www\./i.test(shown) ? `https://${shown}` : shown;
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      continue;
    }
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', text: shown, href: url.href, external: url.host !== host });
    last = start + shown.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

/** Chat lines by id, in order, each once: the socket and a reload may both bring the same line. */
export function mergeMessages(current: readonly TradeMessageView[], incoming: readonly TradeMessageView[]) {
  if (incoming.length === 0) return current as TradeMessageView[];
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** A trade from the server replaces the shown one unless it is older (a late answer). */
export const fresher = (shown: TradeView, next: TradeView) => (next.version >= shown.version ? next : shown);

export const ACTIVE_STATUSES = ['active_funded', 'paid', 'dispute_open'] as const;
export const isRunning = (status: string) => (ACTIVE_STATUSES as readonly string[]).includes(status);

/** Whole seconds left until `deadline` (unix seconds), never below zero. */
export const secondsLeft = (deadline: number, nowMs: number) => Math.max(0, Math.ceil(deadline - nowMs / 1000));

/** The nearest deadline (unix seconds) among a dispute's clocks still running, or null. */
export function nextDeadline(clocks: readonly { dueAt: number; overdue: boolean }[]): number | null {
  const running = clocks.filter((c) => !c.overdue).map((c) => c.dueAt);
  return running.length === 0 ? null : Math.min(...running);
}

/** `mm:ss`, or `h:mm:ss` from an hour. */
export function clock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

/** Reasons this side may pick (spec section 3: each reason names who may use it). */
export const reasonsFor = (reasons: readonly DisputeReasonOption[], role: string) =>
  reasons.filter((reason) => reason.roles.includes(role));

/** The line's text as the reader reads it: system lines carry a message key. */
export const messageText = (message: TradeMessageView, t: (key: string) => string) =>
  message.isSystem && message.text.startsWith('trade.system.') ? t(message.text) : message.text;
