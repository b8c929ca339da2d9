// What a Firefox test runs against: the same real server and test site as the Chromium lane
// (tests/e2e/helpers), one user with a test token, and Firefox with the built Firefox extension;
// signedInFirefoxTest gives them to a file's tests as fixtures.
import { ensureExtensionBuilt } from '../../e2e/helpers/extension-build.js';
import { TestSite } from '../../e2e/helpers/test-pages.js';
import { TidemarkServer } from '../../e2e/helpers/tidemark-server.js';
import { test as base } from 'vitest';
import { FirefoxExtension } from './firefox-extension.js';

export interface Backend {
  server: TidemarkServer;
  site: TestSite;
  token: string;
}

export async function startBackend(user: { email: string; name: string }): Promise<Backend> {
  const [server, site] = await Promise.all([TidemarkServer.start(), TestSite.start(), ensureExtensionBuilt('firefox')]);
  try {
    const { token } = await server.createUser(user.email, 'correct horse battery', user.name);
    return { server, site, token };
  } catch (err) {
    await closeAll(site, server);
    throw err;
  }
}

/** Firefox with the built extension, not signed in (a fresh profile each time). */
export async function launchFirefox(): Promise<FirefoxExtension> {
  return FirefoxExtension.launch(await ensureExtensionBuilt('firefox'));
}

/** Firefox with the built extension, signed in to `server` with `token` through the options page. */
export async function launchSignedIn(server: TidemarkServer, token: string): Promise<FirefoxExtension> {
  const ff = await launchFirefox();
  try {
    await ff.signInWithTestToken(server.origin, token);
  } catch (err) {
    await ff.close();
    throw err;
  }
  return ff;
}

/** Closes what a test file started, in the order given, skipping what never started. */
export async function closeAll(...started: ({ close(): Promise<void> } | undefined)[]): Promise<void> {
  for (const s of started) await s?.close();
}

export interface FirefoxFixtures {
  server: TidemarkServer;
  site: TestSite;
  /** The account's test token. */
  token: string;
  /** Firefox with the built extension, signed in as the account. */
  ff: FirefoxExtension;
}

/**
 * The `test` of a Firefox file whose tests share one server, test site, user (`account`) and signed-in
 * Firefox: file-scoped fixtures, started for the file's first test that asks for one and closed after
 * its last test. The tests of a file run in order against them, as in the Chromium lane's fixture
 * (tests/e2e/helpers/extension-test.ts).
 */
export function signedInFirefoxTest(account: { email: string; name: string }) {
  return base.extend<FirefoxFixtures & { backend: Backend }>({
    backend: [
      // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from this pattern
      async ({}, use) => {
        const backend = await startBackend(account);
        try {
          await use(backend);
        } finally {
          await closeAll(backend.site, backend.server);
        }
      },
      { scope: 'file' },
    ],
    server: [async ({ backend }, use) => use(backend.server), { scope: 'file' }],
    site: [async ({ backend }, use) => use(backend.site), { scope: 'file' }],
    token: [async ({ backend }, use) => use(backend.token), { scope: 'file' }],
    ff: [
      async ({ backend }, use) => {
        const ff = await launchSignedIn(backend.server, backend.token);
        try {
          await use(ff);
        } finally {
          await ff.close();
        }
      },
      { scope: 'file' },
    ],
  });
}
