import { expect, it } from 'vitest';
import { twoInstancePools } from '../../../tests/helpers/pg-database.js';
import { TestClock } from '../../../tests/helpers/server.js';
import { DuplicateClientIdError } from '../types/index.js';
import { createPgOAuthRepositories } from './oauth.js';
import { PgTokensRepository } from './tokens.js';
import { PgUsersRepository } from './users.js';

// OAuth on PostgreSQL: applications with ordered redirect URIs, single-use codes, rotating refresh
// tokens, connections; the races two instances can run (one code exchanged twice, one refresh token
// rotated twice) end as they do on one SQLite process.

const pools = twoInstancePools(6);
const clock = new TestClock();

it('registers applications with their redirect URIs in order, refuses a taken client id, updates and deletes them', async () => {
  const one = createPgOAuthRepositories(pools.a, clock);
  const two = createPgOAuthRepositories(pools.b, clock);
  const owner = await new PgUsersRepository(pools.a, clock).create({ email: 'dev@example.test', passwordHash: null });
  const { client, secret } = await one.clients.create({ ownerId: owner.id, name: 'App', kind: 'confidential', redirectUris: ['https://b.example/cb', 'https://a.example/cb', 'https://b.example/cb'] });
  expect(secret).toBeTruthy();
  expect(client).toMatchObject({ owner_id: owner.id, name: 'App', kind: 'confidential', status: 'active', max_tokens: null, redirect_uris: ['https://b.example/cb', 'https://a.example/cb'] });
  expect(client.secret_hash).not.toBe(secret);
  const pub = await two.clients.create({ ownerId: null, name: 'Ext', kind: 'public', redirectUris: ['https://x.example/'], clientId: 'fixed-id' });
  expect(pub.secret).toBeNull();
  await expect(one.clients.create({ ownerId: null, name: 'Again', kind: 'public', redirectUris: [], clientId: 'fixed-id' })).rejects.toBeInstanceOf(DuplicateClientIdError);
  expect((await two.clients.byClientId('fixed-id'))?.id).toBe(pub.client.id);
  expect((await one.clients.addRedirectUris(pub.client.id, ['https://y.example/', 'https://x.example/'])).redirect_uris).toEqual(['https://x.example/', 'https://y.example/']);
  const updated = await two.clients.update(client.id, { name: 'App 2', redirectUris: ['https://c.example/cb'], status: 'suspended', maxTokens: 3 });
  expect(updated).toMatchObject({ name: 'App 2', status: 'suspended', max_tokens: 3, redirect_uris: ['https://c.example/cb'] });
  expect((await one.clients.listForOwner(owner.id)).map((c) => c.id)).toEqual([client.id]);
  const next = await one.clients.regenerateSecret(client.id);
  expect(next).not.toBe(secret);

  const tokens = new PgTokensRepository(pools.a, clock);
  await tokens.create({ userId: owner.id, kind: 'access', clientId: pub.client.client_id, expiresAt: clock.now() + 1000 });
  await tokens.create({ userId: owner.id, kind: 'access', clientId: pub.client.client_id, expiresAt: clock.now() - 1 });
  expect(await two.clients.countLiveAccessTokens('fixed-id')).toBe(1);
  await two.clients.delete(pub.client.id);
  expect(await one.clients.byPk(pub.client.id)).toBeUndefined();
  expect(await one.clients.countLiveAccessTokens('fixed-id')).toBe(0);
});

it('a code exchanged on two instances at once is seen unused by exactly one; rotating one refresh token twice at once revokes the grant', async () => {
  const one = createPgOAuthRepositories(pools.a, clock);
  const two = createPgOAuthRepositories(pools.b, clock);
  const user = await new PgUsersRepository(pools.a, clock).create({ email: 'u@example.test', passwordHash: null });
  const { client } = await one.clients.create({ ownerId: null, name: 'App', kind: 'public', redirectUris: ['https://app.example/cb'] });
  const { code, row } = await one.codes.create({ clientPk: client.id, userId: user.id, redirectUri: 'https://app.example/cb', codeChallenge: 'c', ttlMs: 60_000 });
  expect(row).toMatchObject({ client_pk: client.id, user_id: user.id, used_at: null, expires_at: clock.now() + 60_000 });
  const seen = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? one : two).codes.consume(code)));
  expect(seen.filter((r) => r?.used_at === null)).toHaveLength(1);
  expect((await two.codes.find(code))?.used_at).toBe(clock.now());
  expect(await one.codes.consume('unknown')).toBeUndefined();

  const pair = await one.grants.createFromCode({ clientPk: client.id, clientId: client.client_id, userId: user.id, codeId: row.id, accessTtlMs: 3600_000 });
  expect(await two.grants.grantOfAccessToken(pair.accessTokenId)).toBe(pair.grantId);
  expect(await one.grants.listAuthorizedApps(user.id)).toEqual([
    { client_pk: client.id, client_id: client.client_id, name: 'App', owner_id: null, first_authorized: clock.now(), grants: 1 },
  ]);
  const input = { refreshToken: pair.refreshToken, clientPk: client.id, clientId: client.client_id, accessTtlMs: 3600_000 };
  const results = await Promise.all([one.grants.rotate(input), two.grants.rotate(input)]);
  expect(results.map((r) => (r.ok ? 'ok' : r.reason)).sort()).toEqual(['ok', 'replayed']);
  const tokens = new PgTokensRepository(pools.b, clock);
  const fresh = results.find((r) => r.ok);
  if (!fresh?.ok) throw new Error('no rotation succeeded');
  expect(await tokens.findValid(fresh.pair.accessToken)).toBeUndefined(); // the replay revoked the whole grant
  expect(await two.grants.rotate({ ...input, refreshToken: fresh.pair.refreshToken })).toEqual({ ok: false, reason: 'revoked' });
  expect(await two.grants.rotate({ ...input, clientPk: client.id + 1000 })).toEqual({ ok: false, reason: 'wrong_client' });
  expect(await one.grants.listAuthorizedApps(user.id)).toEqual([]);
});

it('revokes grants by code, by user (keeping one) and by app; connections set the storage flags', async () => {
  const repos = createPgOAuthRepositories(pools.a, clock);
  const users = new PgUsersRepository(pools.a, clock);
  const user = await users.create({ email: 'r@example.test', passwordHash: null });
  const { client } = await repos.clients.create({ ownerId: null, name: 'R', kind: 'public', redirectUris: ['https://r.example/cb'] });
  const grant = async () => {
    const { row } = await repos.codes.create({ clientPk: client.id, userId: user.id, redirectUri: 'https://r.example/cb', codeChallenge: null, ttlMs: 1000 });
    return { codeId: row.id, pair: await repos.grants.createFromCode({ clientPk: client.id, clientId: client.client_id, userId: user.id, codeId: row.id, accessTtlMs: 60_000 }) };
  };
  const tokens = new PgTokensRepository(pools.b, clock);
  const g1 = await grant();
  await repos.grants.revokeByCode(g1.codeId);
  expect(await tokens.findValid(g1.pair.accessToken)).toBeUndefined();
  const g2 = await grant();
  const g3 = await grant();
  const g4 = await grant();
  expect(await repos.grants.revokeAllForUser(user.id, g4.pair.grantId)).toBe(2);
  expect(await tokens.findValid(g2.pair.accessToken)).toBeUndefined();
  expect(await tokens.findValid(g3.pair.accessToken)).toBeUndefined();
  expect(await tokens.findValid(g4.pair.accessToken)).toBeDefined();
  expect(await repos.grants.revokeForUserClient(user.id, client.id)).toBe(1);
  expect(await tokens.findValid(g4.pair.accessToken)).toBeUndefined();
  clock.advance(25 * 3600_000);
  await repos.codes.create({ clientPk: client.id, userId: user.id, redirectUri: 'https://r.example/cb', codeChallenge: null, ttlMs: 1000 });
  clock.advance(25 * 3600_000);
  expect(await repos.codes.purgeExpired()).toBe(1); // codes behind a grant are kept

  await repos.connections.connect(user.id, 'dropbox', 'acc-1');
  await repos.connections.connect(user.id, 'dropbox', 'acc-2');
  await repos.connections.connect(user.id, 'github', 'gh');
  expect((await repos.connections.listForUser(user.id)).map((c) => [c.provider, c.account_id])).toEqual([['dropbox', 'acc-2'], ['github', 'gh']]);
  expect((await users.byId(user.id))?.dropbox_enabled).toBe(1);
  expect(await repos.connections.disconnect(user.id, 'dropbox')).toBe(true);
  expect(await repos.connections.disconnect(user.id, 'dropbox')).toBe(false);
  expect((await users.byId(user.id))?.dropbox_enabled).toBe(0);
});
