import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing';
import { TEST_ENV } from './scripts/test-env.js';

// Unit and server tests. Real-browser end-to-end tests run under Playwright (playwright.config.ts, Chromium)
// and vitest.firefox.config.ts (Firefox).

/** The server's tests (over HTTP against a real database, CLI processes) and the repositories' own. */
export const SERVER_TEST_FILES = ['tests/server/**/*.test.ts', 'server/**/*.test.ts'];

/**
 * What both lanes of server tests share. `isolate: false`: the files a worker runs share one module
 * graph, so the server's modules and packages (Fastify, pg, better-sqlite3, ...) are loaded once per
 * worker instead of once per file, which roughly halves the lane's CPU time. Each
 * file still starts its own servers, databases and processes, and no server test mocks a module
 * or a global (the extension tests that do stay isolated, in the unit project below).
 * One throwaway PostgreSQL cluster per run (tests/helpers/pg-database.ts gives each file a database),
 * and the command line bundled once for the tests that run it as processes (tests/helpers/process.ts).
 * Every server's log goes to one place, searched at the end for the secrets the run's requests carried
 * (tests/setup/suite-log.ts).
 */
export const SERVER_LANE = {
  isolate: false,
  globalSetup: ['tests/setup/postgres.ts', 'tests/setup/cli-bundle.ts', 'tests/setup/suite-log.ts'],
};

export const TIMEOUTS = { testTimeout: 30_000, hookTimeout: 60_000 };

/** What every vitest lane shares besides its timeouts: the test environment (scripts/test-env.ts). */
export const COMMON = { env: TEST_ENV };

export default defineConfig({
  plugins: [WxtVitest()],
  test: {
    ...TIMEOUTS,
    ...COMMON,
    pool: 'forks',
    // Two files at a time. Vitest's default is one fewer than the cores: one here, where most files
    // spend much of their time waiting (on child processes, PostgreSQL, module loading).
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'server', include: SERVER_TEST_FILES, ...SERVER_LANE } },
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts', 'lib/**/*.test.ts', 'components/**/*.test.{ts,tsx}', 'entrypoints/**/*.test.ts'],
          exclude: ['tests/server/**', 'tests/e2e/**', 'tests/e2e-firefox/**', 'node_modules/**', '.output/**'],
        },
      },
    ],
  },
});
