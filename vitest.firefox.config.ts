import { defineConfig } from 'vitest/config';
import { TEST_ENV } from './scripts/test-env.js';

// The Firefox lane: Debian's Firefox ESR driven by puppeteer-core over WebDriver BiDi, with the built
// Firefox extension, against the real server on loopback (tests/e2e-firefox). One browser at a time.
export default defineConfig({
  test: {
    include: ['tests/e2e-firefox/**/*.test.ts'],
    env: TEST_ENV,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    // One module graph for the lane's files (as the server lanes): puppeteer-core, the server and the
    // helpers load once, not once per file (the files run one after another, so every second of a
    // file's imports was a second of the lane's). No file here mocks a module or a global.
    isolate: false,
  },
});
