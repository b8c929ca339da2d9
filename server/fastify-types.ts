// Decorations the app adds to Fastify, typed once for every route module.
import type { ServerConfig } from './config.js';
import type { Repositories } from './repositories/index.js';
import type { Permissions } from './services/permissions.js';
import type { SessionRow, TokenRow } from './repositories/index.js';
import type { Services } from './services/index.js';
import type { Store } from './db/store.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig;
    repos: Repositories;
    permissions: Permissions;
    services: Services;
    /** The open database (which backend, its upkeep); routes use `repos`. */
    store: Store;
  }
  interface FastifyRequest {
    /** The signed-in user, or null on routes whose auth is optional. */
    userId: number | null;
    token: TokenRow | null;
    /** The web app's session, when its cookie (not a bearer token) signed the request in. */
    webSession: SessionRow | null;
    /** Why authentication failed (answered after the rate limit has counted the request), or null. */
    authFailure: Error | null;
  }
  interface FastifyContextConfig {
    /** 'required' (default on /rest/v1), 'optional' (public collections) or 'none'. */
    auth?: 'required' | 'optional' | 'none';
    /** Rate-limit bucket: 'small' for tags, sharing, import/file and url/parse. */
    bucket?: 'main' | 'small';
    /** Set on every route under /rest/v1 (their rate limit runs after authentication). */
    apiRoute?: boolean;
    /** Never counted against a rate limit: GET /health and /ready (plugins/health.ts). */
    unmetered?: boolean;
  }
}

export {};
