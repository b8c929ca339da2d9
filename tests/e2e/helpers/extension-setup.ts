// What an extension test runs against, started the same way in every spec: the real Tidemark server
// and a site of test pages on loopback, one user with a test token, and Chromium with the built
// extension (signed in as that user through the options page, or not yet signed in).
import { ExtensionBrowser } from './extension-browser.js';
import { ensureExtensionBuilt } from './extension-build.js';
import { TestSite } from './test-pages.js';
import { TidemarkServer } from './tidemark-server.js';

export const PASSWORD = 'correct horse battery';

export interface Backend {
  server: TidemarkServer;
  site: TestSite;
  /** The user's test token (API calls and the options page's "paste a test token"). */
  token: string;
}

/** Starts the server and the test site, creates the user, and builds the extension meanwhile. */
export async function startBackend(user: { email: string; name: string; pro?: boolean }, opts: { webAppDir?: string } = {}): Promise<Backend> {
  const [server, site] = await Promise.all([TidemarkServer.start(opts), TestSite.start(), ensureExtensionBuilt()]);
  try {
    const { token } = await server.createUser(user.email, PASSWORD, user.name, { pro: user.pro });
    return { server, site, token };
  } catch (err) {
    await closeAll(site, server);
    throw err;
  }
}

type LaunchOptions = Parameters<typeof ExtensionBrowser.launch>[1];

/** Chromium with the built extension, not signed in. */
export async function launchExtension(opts?: LaunchOptions): Promise<ExtensionBrowser> {
  return ExtensionBrowser.launch(await ensureExtensionBuilt(), opts);
}

/** Chromium with the built extension, signed in to `server` with `token`. */
export async function launchSignedIn(server: TidemarkServer, token: string, opts?: LaunchOptions): Promise<ExtensionBrowser> {
  const browser = await launchExtension(opts);
  try {
    await browser.signInWithTestToken(server.origin, token);
  } catch (err) {
    await browser.close();
    throw err;
  }
  return browser;
}

/** Closes what a spec started, in the order given, skipping what never started. */
export async function closeAll(...started: ({ close(): Promise<void> } | undefined)[]): Promise<void> {
  for (const s of started) await s?.close();
}
