import type { Clock } from '../../clock.js';
import type { Db } from '../../db/open.js';
import { SqliteOAuthClientsRepository } from './oauth-clients.js';
import { SqliteOAuthCodesRepository } from './oauth-codes.js';
import { SqliteOAuthConnectionsRepository } from './oauth-connections.js';
import { SqliteOAuthGrantsRepository } from './oauth-grants.js';
import { SqliteOAuthHandoffsRepository } from './oauth-handoffs.js';
import { SqliteSessionsRepository } from './sessions.js';
import type { OAuthRepositories } from '../types/index.js';

/** For `createRepositories`, and for commands that open the database without the service. */
export function createOAuthRepositories(db: Db, clock: Clock): OAuthRepositories {
  return {
    sessions: new SqliteSessionsRepository(db, clock),
    clients: new SqliteOAuthClientsRepository(db, clock),
    codes: new SqliteOAuthCodesRepository(db, clock),
    grants: new SqliteOAuthGrantsRepository(db, clock),
    connections: new SqliteOAuthConnectionsRepository(db, clock),
    handoffs: new SqliteOAuthHandoffsRepository(db, clock),
  };
}
