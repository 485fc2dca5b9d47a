import { describe, expect, it } from 'vitest';
import { openPage, serverAndBrowser } from './harness.ts';

// Every static page runs under its Content-Security-Policy without a single violation: the
// inline scripts are allowed by hash, everything else comes from our own origin.

const PAGES = [
  '/',
  '/vendors',
  '/cookie-policy',
  '/peer-to-peer-map',
  '/media',
  '/fees',
  '/about',
  '/support',
  '/terms',
  '/privacy',
  '/developers',
  '/he/',
  '/de/vendors',
];

const live = serverAndBrowser();

describe('Content-Security-Policy', () => {
  it.each(PAGES)('%s loads without violations', async (path) => {
    const page = await openPage(live.browser);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
        violations.push(message.text());
    });
    await page.exposeFunction('__cspViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { __cspViolation(t: string): void }).__cspViolation(
          `${e.violatedDirective} ${e.blockedURI}`,
        ),
      );
    });
    const response = await page.goto(`${live.server.url}${path}`, { waitUntil: 'networkidle' });
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    expect(violations).toEqual([]);
    await page.context().close();
  });
});
