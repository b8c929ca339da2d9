// Environment every test lane runs with (vitest's `test.env` in each vitest config; Playwright's config
// sets it for its workers), and so every server and CLI process a test starts.

/**
 * scrypt's N for password hashes made in tests: 2^10 (about 1/32 of the CPU of production's 2^15 per
 * hash; the lanes make several hundred). tests/server/password-cost.test.ts proves that production,
 * with the variable unset, hashes at the default.
 */
export const TEST_ENV = { TIDEMARK_PASSWORD_HASH_COST: '1024' };
