// OAuth: registered applications, codes, grants, connections and consent hand-offs.
import type { SessionsRepository } from './sessions.js';

export type ClientKind = 'confidential' | 'public';

export type ClientStatus = 'active' | 'suspended';

export interface OAuthClientRow {
  id: number;
  client_id: string;
  owner_id: number | null;
  name: string;
  kind: ClientKind;
  secret_hash: string | null;
  status: ClientStatus;
  max_tokens: number | null;
  created_at: number;
  updated_at: number;
}

/** A registered application with its exact redirect URIs, in the order they were given. */
export interface OAuthClient extends OAuthClientRow {
  redirect_uris: string[];
}

export class DuplicateClientIdError extends Error {
  constructor(clientId: string) {
    super(`An application with the client id ${clientId} already exists.`);
  }
}

export interface OAuthCodeRow {
  id: number;
  code_hash: string;
  client_pk: number;
  user_id: number;
  redirect_uri: string;
  code_challenge: string | null;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface ConnectionRow {
  user_id: number;
  provider: string;
  account_id: string;
  connected_at: number;
}

export interface RefreshTokenRow {
  id: number;
  grant_id: number;
  token_hash: string;
  access_token_id: number | null;
  created_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
}

/** A freshly issued pair; the secrets exist only here. */
export interface IssuedPair {
  accessToken: string;
  refreshToken: string;
  accessTokenId: number;
  issuedAt: number;
  expiresAt: number;
  grantId: number;
}

/** An app the user has authorized, for the "authorized apps" list. */
export interface AuthorizedApp {
  client_pk: number;
  client_id: string;
  name: string;
  owner_id: number | null;
  first_authorized: number;
  grants: number;
}

/** Registered OAuth applications. Client secrets are returned once, at creation or regeneration. */
export interface OAuthClientsRepository {
  /**
   * Registers an application. Confidential clients get a secret (returned here only); public ones
   * (browser extensions, apps that cannot keep a secret) get none. `clientId` fixes the id (the
   * bundled extension's well-known id); otherwise a random one is made.
   */
  create(input: {
    ownerId: number | null;
    name: string;
    kind: ClientKind;
    redirectUris: string[];
    clientId?: string;
  }): Promise<{
    client: OAuthClient;
    secret: string | null;
  }>;
  byPk(id: number): Promise<OAuthClient | undefined>;
  byClientId(clientId: string): Promise<OAuthClient | undefined>;
  listForOwner(ownerId: number): Promise<OAuthClient[]>;
  update(id: number, changes: {
    name?: string;
    redirectUris?: string[];
    status?: ClientStatus;
    maxTokens?: number | null;
  }): Promise<OAuthClient>;
  /** Adds redirect URIs the client does not have yet, keeping the ones it has. */
  addRedirectUris(id: number, uris: string[]): Promise<OAuthClient>;
  /** Replaces a confidential client's secret; the old one stops working at once. */
  regenerateSecret(id: number): Promise<string>;
  /** Deletes the application and revokes every token issued to it. */
  delete(id: number): Promise<void>;
  /** Access tokens issued through OAuth to this client that still work (for the per-app limit). */
  countLiveAccessTokens(clientId: string): Promise<number>;
}

/** Authorization codes: single use, short-lived, bound to the client and redirect URI. */
export interface OAuthCodesRepository {
  create(input: {
    clientPk: number;
    userId: number;
    redirectUri: string;
    codeChallenge: string | null;
    ttlMs: number;
  }): Promise<{
    code: string;
    row: OAuthCodeRow;
  }>;
  /**
   * Marks the code used and returns its row as it was before (so `used_at` tells whether it had
   * already been used). Atomic: of two concurrent exchanges of one code, only one sees it unused.
   */
  consume(code: string): Promise<OAuthCodeRow | undefined>;
  /** The code's row without using it up (the exchange checks client, redirect URI and PKCE first). */
  find(code: string): Promise<OAuthCodeRow | undefined>;
  /** Forgets codes that expired more than a day ago (they can no longer be reused anyway). */
  purgeExpired(): Promise<number>;
}

/** Outside accounts (sign-in providers, storage) connected to a user. */
export interface OAuthConnectionsRepository {
  connect(userId: number, provider: string, accountId: string): Promise<void>;
  /** Removes the connection; true when there was one. */
  disconnect(userId: number, provider: string): Promise<boolean>;
  listForUser(userId: number): Promise<ConnectionRow[]>;
}

/**
 * Grants (what a user authorized an app to do, one per exchanged code) with their rotating refresh
 * tokens and the access tokens issued under them. Writes that issue or revoke several tokens run in
 * one transaction.
 */
export interface OAuthGrantsRepository {
  /** Starts a grant from an exchanged code and issues its first access and refresh tokens. */
  createFromCode(input: {
    clientPk: number;
    clientId: string;
    userId: number;
    codeId: number;
    accessTtlMs: number;
  }): Promise<IssuedPair>;
  /**
   * Exchanges a refresh token for a new pair. The presented token stops working. Presenting a
   * token that was already rotated means it leaked or was replayed: the whole grant is revoked.
   */
  rotate(input: {
    refreshToken: string;
    clientPk: number;
    clientId: string;
    accessTtlMs: number;
  }): Promise<{
    ok: true;
    pair: IssuedPair;
    userId: number;
  } | {
    ok: false;
    reason: 'unknown' | 'wrong_client' | 'revoked' | 'replayed';
  }>;
  /** Revokes every token issued from a code (called when the code is presented a second time). */
  revokeByCode(codeId: number): Promise<void>;
  /** The grant an access token was issued under, if it came from OAuth. */
  grantOfAccessToken(tokenId: number): Promise<number | undefined>;
  /** Revokes all of the user's grants (and their tokens) except `keepGrantId`. Returns how many. */
  revokeAllForUser(userId: number, keepGrantId?: number): Promise<number>;
  /** "Revoke access" for one app: every grant of the user to that client, and its access tokens. */
  revokeForUserClient(userId: number, clientPk: number): Promise<number>;
  /** Apps the user has authorized and not revoked. */
  listAuthorizedApps(userId: number): Promise<AuthorizedApp[]>;
}

/**
 * One-time OAuth consent hand-offs (the 303 after the consent form, then a 307 to the app), kept in
 * the database so the follow-up request may reach any instance. Ids are stored hashed.
 */
export interface OAuthHandoffsRepository {
  /** Stores a hand-off under a new random id (answered), valid for `ttlMs`; forgets expired ones. */
  create(input: { userId: number; location: string; ttlMs: number }): Promise<string>;
  /** The hand-off's location, once: only for its user and before it expires (then it is gone). */
  take(id: string, userId: number): Promise<string | undefined>;
}

/** The repositories of web sign-ins and OAuth: `app.repos.oauth` in the service. */
export interface OAuthRepositories {
  sessions: SessionsRepository;
  clients: OAuthClientsRepository;
  codes: OAuthCodesRepository;
  grants: OAuthGrantsRepository;
  connections: OAuthConnectionsRepository;
  handoffs: OAuthHandoffsRepository;
}
