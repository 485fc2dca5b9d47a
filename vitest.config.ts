import { defineConfig } from 'vitest/config';

// Projects: pure modules (unit), the API in-process (api), the property and concurrency suites
// (slow), the security suite walking the route table (security), and the built server in real
// Chromium (e2e). `npm test` builds first and runs them all; the e2e project refuses an older
// build (tests/e2e/harness.ts), so it always tests the artifact `npm start` runs.
const SLOW = ['tests/api/**/*-property.test.ts', 'tests/api/**/*-concurrency.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['tests/support/global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'api', include: ['tests/api/**/*.test.ts'], exclude: SLOW } },
      // Property and concurrency suites (random operations, worker threads racing): minutes, not seconds.
      { extends: true, test: { name: 'slow', include: SLOW, testTimeout: 120_000 } },
      // The security suite (docs/security.md): walks the route table, so new routes are covered.
      { extends: true, test: { name: 'security', include: ['tests/security/**/*.test.ts'], testTimeout: 60_000 } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One Chromium at a time: these machines have two cores.
          fileParallelism: false,
          // What a page shows after a click or an event may take seconds on a loaded machine;
          // a poll fails on what never appears, not on what appears late.
          expect: { poll: { timeout: 5_000 } },
        },
      },
    ],
  },
});
