import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing';

// Unit and server tests. Real-browser end-to-end tests run under Playwright (playwright.config.ts, Chromium)
// and vitest.firefox.config.ts (Firefox).
export default defineConfig({
  plugins: [WxtVitest()],
  test: {
    include: ['tests/**/*.test.ts', 'lib/**/*.test.ts', 'server/**/*.test.ts', 'components/**/*.test.{ts,tsx}', 'entrypoints/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'tests/e2e-firefox/**', 'node_modules/**', '.output/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One throwaway PostgreSQL cluster per run (tests/helpers/pg-database.ts gives each file a database),
    // and the command line bundled once for the tests that run it as processes (tests/helpers/process.ts).
    globalSetup: ['tests/setup/postgres.ts', 'tests/setup/cli-bundle.ts'],
  },
});
