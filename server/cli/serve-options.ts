import path from 'node:path';
import { parseArgs } from 'node:util';
import { PROVIDERS } from '../services/oauth/providers.js';
import { CliError } from './args.js';

/**
 * Every `serve` setting, once: its flag, its environment variable, how a value is read and what it
 * means. The flag parser, the environment reader and `serve --help` are all made from this table, so
 * a setting can never exist as a flag without its variable or the other way round.
 */
interface ServeOption<T> {
  /** The flag without its dashes; the variable is TIDEMARK_ and the flag in capitals with '_'. */
  flag: string;
  /** What the value looks like in --help (none for on/off switches). */
  value?: string;
  help: string;
  /** Reads one value; throws a message (without the setting's name, added by the caller) when malformed. */
  parse: (raw: string) => T;
  /** On/off: a flag without a value, a variable of true/false (1/0, yes/no, on/off). */
  boolean?: true;
  /** The variable, where it is older than the rule (TIDEMARK_FILES_DIR). */
  env?: string;
}

function option<T>(o: ServeOption<T>): ServeOption<T> {
  return o;
}

function portNumber(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65535) throw new Error('must be a number from 0 to 65535');
  return n;
}

function positiveInteger(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < 1) throw new Error('must be a positive whole number');
  return n;
}

function positiveNumber(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n <= 0) throw new Error('must be a positive number');
  return n;
}

function nonEmpty(raw: string): string {
  if (!raw.trim()) throw new Error('must not be empty');
  return raw.trim();
}

function switchValue(raw: string): boolean {
  if (/^(1|true|yes|on)$/i.test(raw.trim())) return true;
  if (/^(0|false|no|off)$/i.test(raw.trim())) return false;
  throw new Error('must be true or false');
}

function httpUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error('must be an http:// or https:// URL such as https://tidemark.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('must be an http:// or https:// URL such as https://tidemark.example.com');
  if (url.pathname !== '/' || url.search || url.hash) throw new Error('must be an origin only (no path), such as https://tidemark.example.com');
  return url.origin;
}

function postgresUrl(raw: string): string {
  if (!/^postgres(ql)?:\/\//i.test(raw.trim())) throw new Error('must be a PostgreSQL URL such as postgres://user:password@host:5432/tidemark');
  return raw.trim();
}

/** An outgoing mail server as one URL: smtps:// (TLS from the start) or smtp:// (STARTTLS when offered). */
interface SmtpUrl {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
}

function smtpUrl(raw: string): SmtpUrl {
  let url: URL;
  const problem = 'must be a URL such as smtps://user:password@mail.example.com:465 or smtp://mail.example.com:587';
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(problem);
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) throw new Error(problem);
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    user: url.username ? decodeURIComponent(url.username) : undefined,
    pass: url.password ? decodeURIComponent(url.password) : undefined,
  };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function oneOf<T extends string>(choices: readonly T[]) {
  return (raw: string): T => {
    const v = raw.trim().toLowerCase();
    if (!(choices as readonly string[]).includes(v)) throw new Error(`must be one of ${choices.join(', ')}`);
    return v as T;
  };
}

const SERVE_OPTIONS = {
  port: option({ flag: 'port', value: 'N', help: 'Port to listen on (default 8787; 0: any free port).', parse: portNumber }),
  host: option({ flag: 'host', value: 'ADDRESS', help: 'Address to listen on (default 127.0.0.1; 0.0.0.0 for every interface).', parse: nonEmpty }),
  data: option({ flag: 'data', value: 'DIR', help: 'Data directory (default ./data): the SQLite database and, unless --files says otherwise, uploaded files.', parse: (raw) => path.resolve(nonEmpty(raw)) }),
  database: option({ flag: 'database-url', value: 'URL', help: 'PostgreSQL instead of SQLite (postgres://user:password@host:5432/db); migrated on start. Also --database.', parse: postgresUrl }),
  publicUrl: option({ flag: 'public-url', value: 'URL', help: 'The address people use to reach this server (links in mails, OAuth redirects).', parse: httpUrl }),
  smtpUrl: option({ flag: 'smtp-url', value: 'URL', help: 'Mail server for invitations (smtps://user:password@host:465). Unset: mails go to <data>/outbox.', parse: smtpUrl }),
  mailFrom: option({ flag: 'mail-from', value: 'ADDRESS', help: 'The From of mails, e.g. "Tidemark <no-reply@example.com>".', parse: nonEmpty }),
  files: option({ flag: 'files', value: 'DIR', env: 'TIDEMARK_FILES_DIR', help: 'Keep uploaded files in this directory (several instances may share it).', parse: (raw) => path.resolve(nonEmpty(raw)) }),
  trustProxy: option({ flag: 'trust-proxy', help: 'Behind a reverse proxy: take the client address and scheme from X-Forwarded-For/-Proto.', parse: switchValue, boolean: true }),
  allowPrivateNetwork: option({ flag: 'allow-private-network', help: 'Let page fetching reach loopback and private addresses (local testing only).', parse: switchValue, boolean: true }),
  textHostDelayMs: option({ flag: 'text-host-delay-ms', value: 'MS', help: 'Pause between two page fetches to one site by the text job (default 2000).', parse: positiveInteger }),
  textConcurrency: option({ flag: 'text-concurrency', value: 'N', help: 'Bookmarks the text job reads at once, one per site at a time (default 8).', parse: positiveInteger }),
  textJob: option({ flag: 'text-job', value: 'on|off', help: 'Read the pages of bookmarks saved without text, for search and the reader (default on).', parse: switchValue }),
  rateLimit: option({ flag: 'rate-limit', value: 'N', help: 'Requests a minute per user (default 120; half that for tags, sharing, import, parse).', parse: positiveInteger }),
  logFormat: option({ flag: 'log-format', value: 'json|pretty', help: 'json: one JSON line per request; pretty: readable lines (default when output is a terminal).', parse: oneOf(['json', 'pretty'] as const) }),
  logLevel: option({ flag: 'log-level', value: 'LEVEL', help: `Least important log lines written: ${LOG_LEVELS.join(', ')} (default info).`, parse: oneOf(LOG_LEVELS) }),
  uploadMaxMb: option({ flag: 'upload-max-mb', value: 'MB', help: 'Largest file upload and cover image (default 10).', parse: positiveNumber }),
  invitationTtlDays: option({ flag: 'invitation-ttl-days', value: 'DAYS', help: 'Days a sharing invitation stays valid (default 14).', parse: positiveNumber }),
};

type Options = typeof SERVE_OPTIONS;
export type ServeSettings = { [K in keyof Options]?: ReturnType<Options[K]['parse']> };

/** The variable a setting is read from. */
function envName(o: ServeOption<unknown>): string {
  return o.env ?? `TIDEMARK_${o.flag.toUpperCase().replaceAll('-', '_')}`;
}

/**
 * TIDEMARK_* variables that are not `serve` flags: secrets (better kept out of a process's command
 * line), the S3 and SMTP parts, OAuth providers, and the test suite's own.
 */
const OTHER_VARIABLES = new Set([
  'TIDEMARK_PASSWORD_HASH_COST',
  ...['HOST', 'PORT', 'SECURE', 'REQUIRE_TLS', 'USER', 'PASS'].map((p) => `TIDEMARK_SMTP_${p}`),
  ...['ENDPOINT', 'REGION', 'BUCKET', 'ACCESS_KEY', 'SECRET_KEY', 'PREFIX'].map((p) => `TIDEMARK_S3_${p}`),
  ...PROVIDERS.flatMap((name) => ['CLIENT_ID', 'CLIENT_SECRET', 'AUTHORIZE_URL', 'TOKEN_URL'].map((p) => `TIDEMARK_${name.toUpperCase()}_${p}`)),
  'TIDEMARK_TEST_BACKEND',
  'TIDEMARK_E2E_CHROMIUM_LOG',
  'TIDEMARK_E2E_GDB',
]);

/** The variables `serve` reads that are not flags, for --help. */
const OTHER_VARIABLES_HELP = [
  ['TIDEMARK_SMTP_HOST, _PORT, _SECURE, _REQUIRE_TLS, _USER, _PASS', 'The mail server in parts (instead of TIDEMARK_SMTP_URL).'],
  ['TIDEMARK_S3_ENDPOINT, _REGION, _BUCKET, _ACCESS_KEY, _SECRET_KEY, _PREFIX', 'Keep files in an S3-compatible bucket.'],
  [`TIDEMARK_<PROVIDER>_CLIENT_ID, _CLIENT_SECRET`, `Sign-in providers users can connect (${PROVIDERS.join(', ')}).`],
  ['TIDEMARK_PASSWORD_HASH_COST', "scrypt's N for new password hashes (default 32768)."],
] as const;

/**
 * The settings of `serve`: each flag given, else its variable, else left unset (the caller's
 * default). A flag or variable that cannot be read, or a TIDEMARK_* variable nobody reads, stops
 * the start with a message naming it (a typo must not leave a setting silently at its default).
 */
export function readServeSettings(args: string[], env: NodeJS.ProcessEnv): { help: boolean; settings: ServeSettings } {
  const entries = Object.entries(SERVE_OPTIONS) as [keyof Options, ServeOption<unknown>][];
  const known = new Set([...OTHER_VARIABLES, ...entries.map(([, o]) => envName(o))]);
  const unknown = Object.keys(env).filter((name) => name.startsWith('TIDEMARK_') && !known.has(name));
  if (unknown.length) {
    throw new CliError(`Unknown environment variable${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. Run \`serve --help\` for the ones Tidemark reads.`);
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args,
      options: {
        help: { type: 'boolean', short: 'h' },
        // `--database` is what every other command takes; kept for serve too.
        database: { type: 'string' },
        ...Object.fromEntries(entries.map(([, o]) => [o.flag, { type: o.boolean ? ('boolean' as const) : ('string' as const) }])),
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    throw new CliError(`${(err as Error).message} Run \`serve --help\` for the flags.`);
  }
  if (typeof values.database === 'string' && values['database-url'] === undefined) values['database-url'] = values.database;
  const settings: Record<string, unknown> = {};
  for (const [key, o] of entries) {
    const given = values[o.flag];
    const variable = env[envName(o)];
    if (given !== undefined) {
      const name = o.flag === 'database-url' && values['database-url'] === values.database ? '--database' : `--${o.flag}`;
      settings[key] = typeof given === 'boolean' ? given : readValue(o, given, name);
    } else if (variable !== undefined && variable !== '') {
      settings[key] = readValue(o, variable, envName(o));
    }
  }
  return { help: !!values.help, settings: settings as ServeSettings };
}

function readValue(o: ServeOption<unknown>, raw: string, name: string): unknown {
  try {
    return o.parse(raw);
  } catch (err) {
    // The value is left out of the message when it may hold a password.
    const shown = o.flag === 'smtp-url' || o.flag === 'database-url' ? '' : `, got "${raw}"`;
    throw new CliError(`${name} ${(err as Error).message}${shown}.`);
  }
}

/** `serve --help`: every flag with its variable, from the table. */
export function serveHelp(): string {
  const rows = Object.values(SERVE_OPTIONS).map((o: ServeOption<unknown>) => [`--${o.flag}${o.value ? ` ${o.value}` : ''}`, envName(o), o.help]);
  const width = Math.max(...rows.map(([flag]) => flag!.length));
  const envWidth = Math.max(...rows.map(([, env]) => env!.length));
  const lines = [
    'Usage: serve [flags]',
    '',
    'Each flag can also be given as the environment variable beside it; a flag wins over its variable.',
    'An unknown TIDEMARK_* variable or a malformed value stops the start with a message naming it.',
    '',
    ...rows.map(([flag, env, help]) => `  ${flag!.padEnd(width)}  ${env!.padEnd(envWidth)}  ${help}`),
    '',
    'Environment only (secrets stay out of the command line):',
    ...OTHER_VARIABLES_HELP.map(([name, help]) => `  ${name}\n      ${help}`),
    '',
  ];
  return lines.join('\n');
}
