import { defineConfig } from 'vitest/config';
import { TEST_ENV } from './scripts/test-env';

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
  },
});
