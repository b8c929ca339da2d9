import type { Clock } from '../../clock.js';
import type { Db } from '../../db/open.js';
import { OAuthClientsRepository } from '../../repositories/oauth-clients.js';
import { OAuthCodesRepository } from '../../repositories/oauth-codes.js';
import { OAuthConnectionsRepository } from '../../repositories/oauth-connections.js';
import { OAuthGrantsRepository } from '../../repositories/oauth-grants.js';
import { SessionsRepository } from '../../repositories/sessions.js';

/** The repositories of accounts and OAuth (kept apart from `app.repos`, which the core owns). */
export interface OAuthStore {
  sessions: SessionsRepository;
  clients: OAuthClientsRepository;
  codes: OAuthCodesRepository;
  grants: OAuthGrantsRepository;
  connections: OAuthConnectionsRepository;
}

const stores = new WeakMap<Db, OAuthStore>();

/** One store per open database, made on first use. */
export function oauthStore(db: Db, clock: Clock): OAuthStore {
  let store = stores.get(db);
  if (!store) {
    store = {
      sessions: new SessionsRepository(db, clock),
      clients: new OAuthClientsRepository(db, clock),
      codes: new OAuthCodesRepository(db, clock),
      grants: new OAuthGrantsRepository(db, clock),
      connections: new OAuthConnectionsRepository(db, clock),
    };
    stores.set(db, store);
  }
  return store;
}
