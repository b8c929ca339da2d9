import type pg from 'pg';
import type { Clock } from '../../clock.js';
import type { OAuthRepositories } from '../types/index.js';
import { PgOAuthClientsRepository } from './oauth-clients.js';
import { PgOAuthCodesRepository } from './oauth-codes.js';
import { PgOAuthConnectionsRepository } from './oauth-connections.js';
import { PgOAuthGrantsRepository } from './oauth-grants.js';
import { PgOAuthHandoffsRepository } from './oauth-handoffs.js';
import { PgSessionsRepository } from './sessions.js';

/** The PostgreSQL repositories of web sign-ins and OAuth (`repos.oauth`). */
export function createPgOAuthRepositories(pool: pg.Pool, clock: Clock): OAuthRepositories {
  return {
    sessions: new PgSessionsRepository(pool, clock),
    clients: new PgOAuthClientsRepository(pool, clock),
    codes: new PgOAuthCodesRepository(pool, clock),
    grants: new PgOAuthGrantsRepository(pool, clock),
    connections: new PgOAuthConnectionsRepository(pool, clock),
    handoffs: new PgOAuthHandoffsRepository(pool, clock),
  };
}
