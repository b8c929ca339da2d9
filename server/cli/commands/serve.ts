import path from 'node:path';
import { buildApp, API_PREFIX } from '../../app.js';
import { defaultConfig } from '../../config.js';
import { lowPasswordCostWarning } from '../../services/passwords.js';
import { FileStorageError } from '../../services/files/storage.js';
import { ensureExtensionClient } from '../../services/oauth/extension-client.js';
import { CHROME_REDIRECT_URL, FIREFOX_REDIRECT_URL } from '../../../lib/api/extension-identity.js';
import { CliError, dataDirOf, databaseUrlOf, parseFlags } from '../args.js';
import { openStoreForCommand } from '../store.js';

/**
 * `serve [--port 8787] [--host 127.0.0.1] [--data ./data] [--database postgres://...] [--files DIR] [--allow-private-network]`.
 * With `--database` (or TIDEMARK_DATABASE_URL) the database is PostgreSQL, migrated on start.
 */
export async function run(args: string[]): Promise<void> {
  const flags = parseFlags(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    'allow-private-network': { type: 'boolean' },
    'trust-proxy': { type: 'boolean' },
    'rate-limit': { type: 'string' },
    files: { type: 'string' },
  });
  const port = flags.port === undefined ? 8787 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be a number from 0 to 65535, got "${flags.port}".`);
  const perMinute = flags['rate-limit'] === undefined ? 120 : Number(flags['rate-limit']);
  if (!Number.isInteger(perMinute) || perMinute < 1) throw new CliError('--rate-limit must be a positive whole number.');
  const config = defaultConfig({
    port,
    host: (flags.host as string | undefined) ?? '127.0.0.1',
    dataDir: dataDirOf(flags),
    databaseUrl: databaseUrlOf(flags),
    allowPrivateNetwork: !!flags['allow-private-network'],
    trustProxy: !!flags['trust-proxy'],
    rateLimit: { perMinute, smallPerMinute: Math.max(1, Math.floor(perMinute / 2)) },
  });
  if (typeof flags.files === 'string') {
    if (config.files?.kind === 's3') throw new CliError('--files and TIDEMARK_S3_* both name where files are kept. Use one of them.');
    config.files = { kind: 'directory', dir: path.resolve(flags.files) };
  }
  const store = await openStoreForCommand(config);
  const app = await buildApp(config, store).catch(async (error: unknown) => {
    await store.close();
    throw storageProblem(error);
  });
  // The bundled extension signs in through OAuth on any server it is pointed at (Chrome and Firefox
  // redirect URLs; idempotent, so every start keeps the registration current).
  await ensureExtensionClient(store.repos, { name: 'Tidemark extension', redirectUri: CHROME_REDIRECT_URL, redirectUris: [FIREFOX_REDIRECT_URL] }).catch(
    async (error: unknown) => {
      await app.close();
      throw error;
    },
  );
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    app.close().then(
      () => process.exit(0),
      (err) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  const address = await app.listen({ port: config.port, host: config.host }).catch(async (error: unknown) => {
    await app.close();
    throw storageProblem(error);
  });
  const url = new URL(address);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = '127.0.0.1';
  const costWarning = lowPasswordCostWarning(config.passwordHashCost);
  if (costWarning) {
    app.log.warn({ passwordHashCost: config.passwordHashCost }, costWarning);
    process.stderr.write(`${costWarning}\n`);
  }
  process.stdout.write(`Tidemark API listening on ${url.origin}${API_PREFIX}\n`);
}

/** A file storage that cannot be used is the operator's to fix: its message alone, exit code 2. */
function storageProblem(error: unknown): unknown {
  return error instanceof FileStorageError ? new CliError(error.message) : error;
}
