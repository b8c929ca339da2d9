import { buildApp, API_PREFIX } from '../../app.js';
import { defaultConfig } from '../../config.js';
import { openStore } from '../../db/open-store.js';
import { CliError, dataDirOf, parseFlags } from '../args.js';

/** `serve [--port 8787] [--host 127.0.0.1] [--data ./data] [--allow-private-network]` */
export async function run(args: string[]): Promise<void> {
  const flags = parseFlags(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    'allow-private-network': { type: 'boolean' },
    'trust-proxy': { type: 'boolean' },
    'rate-limit': { type: 'string' },
  });
  const port = flags.port === undefined ? 8787 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be a number from 0 to 65535, got "${flags.port}".`);
  const perMinute = flags['rate-limit'] === undefined ? 120 : Number(flags['rate-limit']);
  if (!Number.isInteger(perMinute) || perMinute < 1) throw new CliError('--rate-limit must be a positive whole number.');
  const config = defaultConfig({
    port,
    host: (flags.host as string | undefined) ?? '127.0.0.1',
    dataDir: dataDirOf(flags),
    allowPrivateNetwork: !!flags['allow-private-network'],
    trustProxy: !!flags['trust-proxy'],
    rateLimit: { perMinute, smallPerMinute: Math.max(1, Math.floor(perMinute / 2)) },
  });
  const app = await buildApp(config, await openStore(config));
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
  const address = await app.listen({ port: config.port, host: config.host });
  const url = new URL(address);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = '127.0.0.1';
  process.stdout.write(`Tidemark API listening on ${url.origin}${API_PREFIX}\n`);
}
