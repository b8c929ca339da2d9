// `npm start`: serves the API on the embedded SQLite default, builds the extension, registers the
// extension's OAuth client on first start, and prints how to load the extension and sign in.
import path from 'node:path';
import { defaultConfig } from '../server/config.js';
import { openDatabase } from '../server/db/open.js';
import { buildApp, API_PREFIX } from '../server/app.js';

async function main() {
  const config = defaultConfig({ port: Number(process.env.PORT ?? 8787), dataDir: path.resolve(process.env.TIDEMARK_DATA ?? 'data') });
  const db = openDatabase(config.dataDir);
  const app = await buildApp(config, db);
  const shutdown = () => void app.close().then(() => process.exit(0));
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  await app.listen({ port: config.port, host: config.host });
  const origin = `http://${config.host}:${config.port}`;
  const lines = [`Tidemark API listening on ${origin}${API_PREFIX}`];
  if ((await app.repos.users.count()) === 0) {
    lines.push(
      '',
      'No account exists yet. Create the first one:',
      `  - in the browser: ${origin}/signup`,
      '  - or on the command line: npm run --silent server -- user:create --email you@example.com --password <at least 8 characters>',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
