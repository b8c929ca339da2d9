import path from 'node:path';
import { defaultConfig } from '../../config.js';
import { lowPasswordCostWarning } from '../../services/passwords.js';
import { FileStorageError } from '../../services/files/storage.js';
import { DEFAULT_MAIL_FROM } from '../../services/mail/settings.js';
import { ensureExtensionClient } from '../../services/oauth/extension-client.js';
import { CHROME_REDIRECT_URL, FIREFOX_REDIRECT_URL } from '../../../lib/api/extension-identity.js';
import { CliError } from '../args.js';
import { readServeSettings, serveHelp } from '../serve-options.js';

/**
 * `serve`: every flag and its TIDEMARK_* variable are listed in cli/serve-options.ts (`serve --help`).
 * With a database URL the database is PostgreSQL, migrated on start; else SQLite under the data directory.
 */
export async function run(args: string[]): Promise<void> {
  const { help, settings } = readServeSettings(args, process.env);
  if (help) {
    process.stdout.write(serveHelp());
    return;
  }
  const perMinute = settings.rateLimit ?? 120;
  const config = configFromEnvironment({
    port: settings.port ?? 8787,
    host: settings.host ?? '127.0.0.1',
    dataDir: settings.data ?? path.resolve('data'),
    databaseUrl: settings.database,
    allowPrivateNetwork: settings.allowPrivateNetwork ?? false,
    trustProxy: settings.trustProxy ?? false,
    rateLimit: { perMinute, smallPerMinute: Math.max(1, Math.floor(perMinute / 2)) },
    logFormat: settings.logFormat ?? (process.stdout.isTTY ? 'pretty' : 'json'),
  });
  if (settings.publicUrl) config.publicUrl = settings.publicUrl;
  if (settings.logLevel) config.logLevel = settings.logLevel;
  if (settings.uploadMaxMb) config.uploads.maxBytes = Math.floor(settings.uploadMaxMb * 1024 * 1024);
  if (settings.invitationTtlDays) config.invitationTtlDays = settings.invitationTtlDays;
  if (settings.textHostDelayMs) config.textJob.hostDelayMs = settings.textHostDelayMs;
  if (settings.textConcurrency) config.textJob.concurrency = settings.textConcurrency;
  if (settings.textJob !== undefined) config.textJob.enabled = settings.textJob;
  if (settings.smtpUrl) {
    if (config.smtp) throw new CliError('--smtp-url (TIDEMARK_SMTP_URL) and TIDEMARK_SMTP_HOST both name the mail server. Use one of them.');
    config.smtp = { ...settings.smtpUrl, from: DEFAULT_MAIL_FROM };
  }
  if (settings.mailFrom && config.smtp) config.smtp.from = settings.mailFrom;
  // A files setting the environment already found wrong (TIDEMARK_FILES_DIR with TIDEMARK_S3_*) keeps its message.
  if (settings.files && config.files?.kind !== 'invalid') {
    if (config.files?.kind === 's3') throw new CliError('--files and TIDEMARK_S3_* both name where files are kept. Use one of them.');
    config.files = { kind: 'directory', dir: settings.files };
  }
  // The server itself (Fastify, the database drivers, every route) loads only once the settings
  // are read: `--help` and a mistyped setting answer at once.
  const [{ buildApp, API_PREFIX }, { openStoreForCommand }] = await Promise.all([import('../../app.js'), import('../store.js')]);
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

/**
 * The configuration with what the environment-only variables (TIDEMARK_SMTP_*, TIDEMARK_S3_*,
 * providers, TIDEMARK_PASSWORD_HASH_COST) say. A value they cannot read is the operator's to fix: its
 * message alone (which names the variable), no stack trace.
 */
function configFromEnvironment(overrides: Parameters<typeof defaultConfig>[0]): ReturnType<typeof defaultConfig> {
  try {
    return defaultConfig(overrides);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

/** A file storage that cannot be used is the operator's to fix: its message alone, exit code 2. */
function storageProblem(error: unknown): unknown {
  return error instanceof FileStorageError ? new CliError(error.message) : error;
}
