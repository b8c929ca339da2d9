import { defineConfig } from '@playwright/test';
import { TEST_ENV } from './scripts/test-env.js';

// The servers and CLI processes the specs start run with the tests' environment (this file is loaded by
// every worker too). Set before any spec's modules read it.
Object.assign(process.env, TEST_ENV);

// Real-browser tests: Debian's Chromium, headless, against the real server on loopback.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  // Two spec files at a time (each has its own server, test site and Chromium profile). Most of an
  // e2e test's time is spent waiting (the server, the extension's worker, polls), so two run in about
  // the time of one on 2 cores; see README, Testing.
  workers: 2,
  globalSetup: './tests/e2e/global-setup.ts',
  retries: 0,
  reporter: [['list']],
  // The long page's spec asserts that no task of the extension's takes over 50 ms of CPU: it runs
  // alone, after the others, because a second browser working beside it on 2 cores can push a task
  // past that line.
  projects: [
    { name: 'e2e', testIgnore: /highlight-painters-long-page\.spec\.ts$/ },
    { name: 'e2e-alone', testMatch: /highlight-painters-long-page\.spec\.ts$/, dependencies: ['e2e'] },
  ],
  use: {
    headless: true,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
});
