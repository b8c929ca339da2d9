import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import { LIMITS } from '../lib/api/constants.js';
import { providersFromEnv, type ProvidersConfig } from './services/oauth/providers.js';
import { smtpFromEnv, type SmtpSettings } from './services/mail/settings.js';
import { fileStorageFromEnv, type FileStorageSettings } from './services/files/storage-settings.js';
import { DEFAULT_PASSWORD_HASH_COST, PASSWORD_HASH_COST_RANGE } from './services/passwords.js';

/** Everything the service can be configured with. CLI flags and environment fill it in. */
export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  /**
   * A `postgres://` URL: the database is PostgreSQL there (`--database`, TIDEMARK_DATABASE_URL).
   * Unset: SQLite under `dataDir`.
   */
  databaseUrl?: string;
  /** Public origin of the service (for links in mails, OAuth redirects). Defaults to http://host:port. */
  publicUrl?: string;
  /** Requests per minute per user on the main bucket, and on the small bucket (tags, sharing, import, parse). */
  rateLimit: { perMinute: number; smallPerMinute: number };
  /** Largest accepted request body in bytes (uploads have their own limit). */
  bodyLimit: number;
  logLevel: string;
  /** 'json' (default): one JSON line per request, for log collectors; 'pretty': readable lines for a terminal. */
  logFormat?: 'json' | 'pretty';
  /** Where log lines go: standard output unless set (the tests collect every server's log in a file). */
  logDestination?: { write(line: string): unknown };
  /** Lets the URL fetcher reach loopback and private addresses. For local testing only. */
  allowPrivateNetwork: boolean;
  /** Trust X-Forwarded-For from a reverse proxy in front of the service (`serve --trust-proxy`). */
  trustProxy: boolean;
  clock: Clock;
  /** OAuth 2.0 authorization server settings. */
  oauth: {
    /** Live access tokens one application may hold before authorize answers invalid_application_status. */
    maxTokensPerApp: number;
    accessTokenTtlMs: number;
    codeTtlMs: number;
  };
  /** Web sign-in sessions and login throttling. */
  web: {
    sessionTtlMs: number;
    /** Failed sign-ins allowed per account from one address (20 times that from all addresses together) and per address, within `throttleWindowMs`. */
    maxFailuresPerAccount: number;
    maxFailuresPerIp: number;
    throttleWindowMs: number;
    /** Sign-up attempts allowed per IP address within `throttleWindowMs` (default 20). */
    maxSignupsPerIp?: number;
  };
  /** Outside providers users can connect (client id/secret per provider); unset ones answer 400. */
  oauthProviders: ProvidersConfig;
  /**
   * Outbound mail (sharing invitations). Unset: each message is written as an .eml file to
   * `<dataDir>/outbox/` and the join link is logged. Environment: TIDEMARK_SMTP_HOST and friends.
   */
  smtp?: SmtpSettings;
  /** Days an invitation's join link stays valid (TIDEMARK_INVITATION_TTL_DAYS, default 14). */
  invitationTtlDays: number;
  /** Upload size limits in bytes (PUT /bookmark/file and covers; import files; uploaded permanent copies). */
  uploads: UploadLimits;
  /**
   * Where uploads, covers and permanent copies are kept: unset for `<dataDir>/files`, a directory
   * (several instances may share one), or an S3-compatible bucket. Environment: TIDEMARK_FILES_DIR,
   * TIDEMARK_S3_*.
   */
  files?: FileStorageSettings;
  /** The background job runner (pleaseParse, permanent copies). */
  jobs: JobSettings;
  /** The text job: reads the pages of bookmarks the extension sent no text for (search, reader view). */
  textJob: TextJobSettings;
  /** Time limit for reading one page (GET /import/url/parse, background jobs): DNS, redirects and body. */
  fetchTimeoutMs: number;
  /**
   * scrypt's N for new password hashes (TIDEMARK_PASSWORD_HASH_COST): 32768 unless set. Lower only
   * for tests, which make hundreds of accounts; a stored hash keeps the N it was made with.
   */
  passwordHashCost: number;
  /**
   * The built web app (`vite build -c vite.web.config.ts` writes it), served at `/`; default
   * `dist/web` (defaultWebAppDir). Missing: `/` explains how to build it.
   */
  webAppDir: string;
}

interface UploadLimits {
  /** PUT /bookmark/file, PUT /bookmark/{id}/cover, PUT /collection/{id}/cover; default 10 MB (env TIDEMARK_UPLOAD_MAX_MB) */
  maxBytes: number;
  /** POST/PUT /import/file; default 50 MB */
  importMaxBytes: number;
  /** POST/PUT /import/file: most bookmarks and folders one file may hold; default LIMITS.importEntriesMax */
  importMaxEntries: number;
  /** PUT /bookmark/{id}/cache (a page copy captured by the extension); default 20 MB */
  cacheMaxBytes: number;
}

interface JobSettings {
  /** How often the runner looks for due jobs when idle. */
  pollMs: number;
  /** Jobs run at the same time. */
  concurrency: number;
  /** Tries before a job is given up (state 'failed', last_error kept). */
  maxAttempts: number;
  /** Wait before the first retry; doubles with every further failure, up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** A running job not finished within this time is taken up again (its process died). */
  leaseMs: number;
}

export interface TextJobSettings {
  /** false: the job never starts (tests that read no pages; a server that must not reach out) */
  enabled: boolean;
  /** How often the job looks for due bookmarks when idle. */
  pollMs: number;
  /** Bookmarks in hand at once (each waits for its host, is fetched, then extracted). */
  concurrency: number;
  /** Pause between two requests to one host (`--text-host-delay-ms`). */
  hostDelayMs: number;
  /** Time limit for one page: DNS, redirects and body. */
  timeoutMs: number;
  /** Bytes read from one page or PDF: a page is cut there (its text marked truncated), a longer PDF refused. */
  maxBytes: number;
  /** Tries before a failing page is left failed until someone asks again. */
  maxAttempts: number;
  /** Wait before the first retry; doubles with every further failure, up to maxBackoffMs (a site's Retry-After is honoured within that cap). */
  backoffMs: number;
  maxBackoffMs: number;
  /** A claimed bookmark not finished within this time is taken up again (its process died). */
  leaseMs: number;
}

const MB = 1024 * 1024;

export const DEFAULT_TEXT_JOB_SETTINGS: TextJobSettings = {
  enabled: true,
  pollMs: 2000,
  concurrency: 8,
  hostDelayMs: 2000,
  timeoutMs: 20_000,
  maxBytes: 20 * MB,
  maxAttempts: 5,
  backoffMs: 10 * 60_000,
  maxBackoffMs: 24 * 3600_000,
  // room for every bookmark in hand to wait for one host: concurrency × (pause + timeout + extraction)
  leaseMs: 15 * 60_000,
};

function megabytesFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? Math.floor(value * MB) : fallback;
}

const DEFAULT_JOB_SETTINGS: JobSettings = {
  pollMs: 1000,
  concurrency: 2,
  maxAttempts: 5,
  backoffMs: 30_000,
  maxBackoffMs: 6 * 3600_000,
  leaseMs: 5 * 60_000,
};

function positiveNumber(value: string | undefined, fallback: number): number {
  const n = value ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/**
 * TIDEMARK_PASSWORD_HASH_COST, or the default. Anything but a power of two within the allowed range
 * is refused: a typo must not silently leave passwords cheaper (or dearer) to guess than meant.
 */
export function passwordHashCostFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.TIDEMARK_PASSWORD_HASH_COST;
  if (raw === undefined || raw === '') return DEFAULT_PASSWORD_HASH_COST;
  const n = Number(raw);
  const { min, max } = PASSWORD_HASH_COST_RANGE;
  if (!Number.isInteger(n) || n < min || n > max || (n & (n - 1)) !== 0) {
    throw new Error(`TIDEMARK_PASSWORD_HASH_COST must be a power of two from ${min} to ${max} (scrypt's N; ${DEFAULT_PASSWORD_HASH_COST} when unset, which production should use); got "${raw}".`);
  }
  return n;
}

/**
 * The compiled server (dist/server/) serves the web app built beside it (dist/web/), from whatever
 * directory it was started in (a service manager's may be /). From the sources: dist/web under the
 * working directory, as `npm start` runs it.
 */
function defaultWebAppDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const compiled = path.basename(here) === 'server' && path.basename(path.dirname(here)) === 'dist';
  return compiled ? path.join(here, '..', 'web') : path.resolve('dist/web');
}

export function defaultConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    host: '127.0.0.1',
    port: 8787,
    dataDir: path.resolve('data'),
    rateLimit: { perMinute: 120, smallPerMinute: 60 },
    bodyLimit: 2 * 1024 * 1024,
    logLevel: process.env.LOG_LEVEL ?? 'info',
    allowPrivateNetwork: false,
    trustProxy: false,
    clock: systemClock,
    oauth: { maxTokensPerApp: 10_000, accessTokenTtlMs: 14 * 24 * 3600_000, codeTtlMs: 10 * 60_000 },
    web: { sessionTtlMs: 30 * 24 * 3600_000, maxFailuresPerAccount: 5, maxFailuresPerIp: 20, throttleWindowMs: 15 * 60_000 },
    oauthProviders: providersFromEnv(process.env),
    publicUrl: process.env.TIDEMARK_PUBLIC_URL || undefined,
    databaseUrl: process.env.TIDEMARK_DATABASE_URL || undefined,
    smtp: smtpFromEnv(process.env),
    invitationTtlDays: positiveNumber(process.env.TIDEMARK_INVITATION_TTL_DAYS, 14),
    uploads: { maxBytes: megabytesFromEnv('TIDEMARK_UPLOAD_MAX_MB', 10 * MB), importMaxBytes: 50 * MB, importMaxEntries: LIMITS.importEntriesMax, cacheMaxBytes: 20 * MB },
    jobs: { ...DEFAULT_JOB_SETTINGS },
    textJob: { ...DEFAULT_TEXT_JOB_SETTINGS },
    files: fileStorageFromEnv(process.env),
    fetchTimeoutMs: 10_000,
    passwordHashCost: passwordHashCostFromEnv(process.env),
    webAppDir: defaultWebAppDir(),
    ...overrides,
  };
}
