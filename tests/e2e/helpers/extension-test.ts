// The Playwright fixture every extension spec shares: `test.use({ account })` at the top of a spec names
// its user, and its tests ask for `server`, `site`, `token` and `extension` (Chromium with the built
// extension, signed in as that user unless `launch` says otherwise). All four are worker-scoped: started
// once for the spec's tests, which run in order against them, and closed after its last test.
//
// Each spec names a user of its own, so no two specs share a worker's fixtures: Playwright starts a
// worker for each distinct set of worker option values, and a spec that stops the server or signs out
// leaves nothing behind for another.
import { test as base } from '@playwright/test';
import type { ExtensionBrowser } from './extension-browser.js';
import { closeAll, launchExtension, launchSignedIn, startBackend } from './extension-setup.js';
import type { TestSite } from './test-pages.js';
import type { TidemarkServer } from './tidemark-server.js';

export { expect } from '@playwright/test';

type LaunchOptions = NonNullable<Parameters<typeof launchExtension>[0]>;

export interface ExtensionOptions {
  /** The spec's user: created on the spec's own server. */
  account: { email: string; name: string; pro?: boolean };
  /** How Chromium starts: signed in (the default) or as a new install; more switches, the toolbar button. */
  launch: LaunchOptions & { signedIn?: boolean };
}

export interface ExtensionFixtures {
  server: TidemarkServer;
  site: TestSite;
  /** The account's test token (API calls, and the options page's "paste a test token"). */
  token: string;
  extension: ExtensionBrowser;
}

/** Starting the server, the test site and the build (once per change of the sources) can take a while on a busy machine. */
const SETUP_TIMEOUT = 120_000;

type Backend = Awaited<ReturnType<typeof startBackend>>;

export const test = base.extend<object, ExtensionOptions & ExtensionFixtures & { backend: Backend }>({
  // No default: a spec without its own user would share a worker (and its server) with another spec.
  account: [undefined as unknown as ExtensionOptions['account'], { scope: 'worker', option: true }],
  launch: [{}, { scope: 'worker', option: true }],
  backend: [
    async ({ account }, use) => {
      if (!account) throw new Error('An extension spec names its user: test.use({ account: { email, name } })');
      const backend = await startBackend(account);
      try {
        await use(backend);
      } finally {
        await closeAll(backend.site, backend.server);
      }
    },
    { scope: 'worker', timeout: SETUP_TIMEOUT },
  ],
  server: [async ({ backend }, use) => use(backend.server), { scope: 'worker' }],
  site: [async ({ backend }, use) => use(backend.site), { scope: 'worker' }],
  token: [async ({ backend }, use) => use(backend.token), { scope: 'worker' }],
  extension: [
    async ({ backend, launch: { signedIn = true, ...opts } }, use) => {
      const extension = signedIn ? await launchSignedIn(backend.server, backend.token, opts) : await launchExtension(opts);
      try {
        await use(extension);
      } finally {
        await extension.close();
      }
    },
    { scope: 'worker', timeout: SETUP_TIMEOUT },
  ],
});
