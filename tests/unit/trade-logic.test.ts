import { describe, expect, it } from 'vitest';
import {
  clock,
  fresher,
  mergeMessages,
  messageText,
  nextDeadline,
  reasonsFor,
  secondsLeft,
  splitLinks,
  type TradeMessageView,
  type TradeView,
} from '../../src/components/trade/trade-logic.ts';

// The trade page's rules without React: chat links and which leave the site, chat lines merged
// once, late answers ignored, the countdown and dispute reasons per side.

const line = (id: number, text = `line ${id}`): TradeMessageView => ({
  id,
  author: 'buyer',
  role: 'buyer',
  text,
  isSystem: false,
  attachment: null,
  isForModerator: false,
  createdAt: 1_700_000_000 + id,
});

describe('splitLinks', () => {
  it('finds http(s) and www links, marks those that leave the host, keeps punctuation as text', () => {
    expect(splitLinks('See https://coinfair.example/fees, or www.bank.example/pay.', 'coinfair.example')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://coinfair.example/fees', href: 'https://coinfair.example/fees', external: false },
      { kind: 'text', text: ', or ' },
      { kind: 'link', text: 'www.bank.example/pay', href: 'https://www.bank.example/pay', external: true },
      { kind: 'text', text: '.' },
    ]);
  });

  it('never makes links of other schemes, and leaves markup as text', () => {
    const parts = splitLinks('javascript:alert(1) <a href="x">x</a> data:text/html,hi', 'coinfair.example');
    expect(parts).toEqual([{ kind: 'text', text: 'javascript:alert(1) <a href="x">x</a> data:text/html,hi' }]);
  });

  it('treats a look-alike host as external', () => {
    const [, link] = splitLinks('go https://coinfair.example.evil.test/login', 'coinfair.example');
    expect(link).toMatchObject({ kind: 'link', external: true });
  });
});

describe('mergeMessages', () => {
  it('adds each line once, in id order, whether it came from the socket or a reload', () => {
    const merged = mergeMessages([line(1), line(3)], [line(3), line(2), line(4)]);
    expect(merged.map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });
});

describe('the rest', () => {
  it('keeps the newer trade when an older answer arrives late', () => {
    const shown = { version: 3, status: 'paid' } as TradeView;
    expect(fresher(shown, { version: 2, status: 'active_funded' } as TradeView)).toBe(shown);
    expect(fresher(shown, { version: 4, status: 'released' } as TradeView).status).toBe('released');
  });

  it('counts down in whole seconds and formats the clock', () => {
    expect(secondsLeft(1_000, 999_500)).toBe(1);
    expect(secondsLeft(1_000, 2_000_000)).toBe(0);
    expect(clock(65)).toBe('01:05');
    expect(clock(3_725)).toBe('1:02:05');
  });

  it('offers each side its own dispute reasons and translates system lines', () => {
    const reasons = [
      { id: 'a', title: 'A', roles: ['buyer'] },
      { id: 'b', title: 'B', roles: ['seller'] },
      { id: 'c', title: 'C', roles: ['buyer', 'seller'] },
    ];
    expect(reasonsFor(reasons, 'seller').map((r) => r.id)).toEqual(['b', 'c']);
    const system = { ...line(1, 'trade.system.paid'), isSystem: true };
    expect(messageText(system, (key) => `<${key}>`)).toBe('<trade.system.paid>');
    expect(messageText(line(2, 'trade.system.paid'), (key) => `<${key}>`)).toBe('trade.system.paid');
  });
});

describe('nextDeadline', () => {
  it('is the nearest clock still running, or null when every one is overdue or none runs', () => {
    const running = (dueAt: number) => ({ dueAt, overdue: false });
    expect(nextDeadline([])).toBeNull();
    expect(nextDeadline([running(500), running(200), { dueAt: 100, overdue: true }])).toBe(200);
    expect(nextDeadline([{ dueAt: 100, overdue: true }])).toBeNull();
  });
});
