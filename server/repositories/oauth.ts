import type { Clock } from '../clock.js';
import type { Db } from '../db/open.js';
import { OAuthClientsRepository } from './oauth-clients.js';
import { OAuthCodesRepository } from './oauth-codes.js';
import { OAuthConnectionsRepository } from './oauth-connections.js';
import { OAuthGrantsRepository } from './oauth-grants.js';
import { SessionsRepository } from './sessions.js';

/** The repositories of web sign-ins and OAuth: `app.repos.oauth` in the service. */
export interface OAuthRepositories {
  sessions: SessionsRepository;
  clients: OAuthClientsRepository;
  codes: OAuthCodesRepository;
  grants: OAuthGrantsRepository;
  connections: OAuthConnectionsRepository;
}

/** For `createRepositories`, and for commands that open the database without the service. */
export function createOAuthRepositories(db: Db, clock: Clock): OAuthRepositories {
  return {
    sessions: new SessionsRepository(db, clock),
    clients: new OAuthClientsRepository(db, clock),
    codes: new OAuthCodesRepository(db, clock),
    grants: new OAuthGrantsRepository(db, clock),
    connections: new OAuthConnectionsRepository(db, clock),
  };
}
