import { defineConfig } from 'vitest/config';

// Three projects: pure modules, the API in-process, and the built server in real Chromium.
// `npm test` builds first, so the e2e project always tests the artifact `npm start` runs.
export default defineConfig({
  test: {
    globalSetup: ['tests/support/global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'api', include: ['tests/api/**/*.test.ts'] } },
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
        },
      },
    ],
  },
});
