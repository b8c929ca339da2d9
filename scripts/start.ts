// `npm start`: serves the API and the web app on the embedded SQLite default, builds the extension and the web app, registers the
// extension's OAuth client (first start), and prints how to load the extension and sign in.
import path from 'node:path';
import { buildApp, API_PREFIX } from '../server/app.js';
import { defaultConfig } from '../server/config.js';
import { openStore } from '../server/db/open-store.js';
import { ensureExtensionClient } from '../server/services/oauth/extension-client.js';
import { CHROME_REDIRECT_URL, FIREFOX_REDIRECT_URL } from '../lib/api/extension-identity.js';
import { buildExtension } from './build-extension.js';
import { buildWeb } from './build-web.js';

async function main() {
  const port = Number(process.env.PORT ?? 8787);
  const config = defaultConfig({ port, dataDir: path.resolve(process.env.TIDEMARK_DATA ?? 'data') });
  const store = await openStore(config);
  await ensureExtensionClient(store.repos, { name: 'Tidemark extension', redirectUri: CHROME_REDIRECT_URL, redirectUris: [FIREFOX_REDIRECT_URL] });

  process.stdout.write('Building the extension for Chrome and Firefox...\n');
  const built = await buildExtension({ quiet: true });
  process.stdout.write('Building the web app...\n');
  await buildWeb({ outDir: config.webAppDir, quiet: true });

  const app = await buildApp(config, store);
  const shutdown = () => void app.close().then(() => process.exit(0));
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    if ((err as { code?: string }).code === 'EADDRINUSE') {
      throw new Error(`Port ${config.port} is in use: stop the other server, or run PORT=8788 npm start (then set that server URL in the extension's options).`);
    }
    throw err;
  }
  const origin = `http://${config.host === '127.0.0.1' ? 'localhost' : config.host}:${config.port}`;
  const hasUsers = (await app.repos.users.count()) > 0;
  const lines = [
    '',
    `Tidemark API listening on ${origin}${API_PREFIX}  (docs: ${origin}${API_PREFIX}/docs, data: ${config.dataDir})`,
    '',
    `Your library on the web (any browser, phones too; installable): ${origin}/`,
    '',
    'Load the extension:',
    `  Chrome:  open chrome://extensions, turn on "Developer mode", "Load unpacked" -> ${built.chromeDir}`,
    `  Firefox: open about:debugging#/runtime/this-firefox, "Load Temporary Add-on" -> ${path.join(built.firefoxDir, 'manifest.json')}`,
    '',
    'Sign in:',
    `  open the extension's options (right-click its toolbar icon -> Options), keep the server URL ${origin},`,
    '  click "Sign in" and allow Tidemark on the page that opens.',
  ];
  if (!hasUsers) {
    lines.push(
      '',
      'No account exists yet. Create the first one:',
      `  - in the browser: ${origin}/signup`,
      '  - or on the command line: npm run --silent server -- user:create --email you@example.com --password <at least 8 characters>',
    );
  }
  lines.push('', 'Stop with Ctrl+C.');
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
