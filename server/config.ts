import path from 'node:path';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';

/** Everything the service can be configured with. CLI flags and environment fill it in. */
export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  /** Public origin of the service (for links in mails, OAuth redirects). Defaults to http://host:port. */
  publicUrl?: string;
  /** Requests per minute per user on the main bucket, and on the small bucket (tags, sharing, import, parse). */
  rateLimit: { perMinute: number; smallPerMinute: number };
  /** Largest accepted request body in bytes (uploads have their own limit). */
  bodyLimit: number;
  logLevel: string;
  /** Lets the URL fetcher reach loopback and private addresses. For local testing only. */
  allowPrivateNetwork: boolean;
  clock: Clock;
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
    clock: systemClock,
    ...overrides,
  };
}
