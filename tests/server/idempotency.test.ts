import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';

// Idempotency-Key on writes (beyond the spec): exactly-once creates for the extension's offline queue.
let s: TestServer;
const clock = new TestClock();
beforeAll(async () => {
  s = await startServer({ clock });
});
afterAll(async () => s.close());

const key = () => crypto.randomUUID();

async function count(token: string): Promise<number> {
  return (await s.api('GET', '/bookmarks/0?perpage=50', { token })).body.count;
}

describe('Idempotency-Key', () => {
  it('creates one bookmark for repeated POST /bookmark with the same key and replays the first answer', async () => {
    const u = await s.createUser();
    const k = key();
    const body = { link: 'https://once.example/page', title: 'Once' };
    const first = await s.api('POST', '/bookmark', { token: u.token, body, headers: { 'idempotency-key': k } });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await s.api('POST', '/bookmark', { token: u.token, body, headers: { 'idempotency-key': k } });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await count(u.token)).toBe(1);
    // Without the header (or with another key) it is a new write.
    await s.api('POST', '/bookmark', { token: u.token, body, headers: { 'idempotency-key': key() } });
    await s.api('POST', '/bookmark', { token: u.token, body });
    expect(await count(u.token)).toBe(3);
  });

  it('holds for POST /bookmarks (bulk create)', async () => {
    const u = await s.createUser();
    const k = key();
    const body = { items: [{ link: 'https://bulk-once.example/1' }, { link: 'https://bulk-once.example/2' }] };
    const a = await s.api('POST', '/bookmarks', { token: u.token, body, headers: { 'idempotency-key': k } });
    const b = await s.api('POST', '/bookmarks', { token: u.token, body, headers: { 'idempotency-key': k } });
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(await count(u.token)).toBe(2);
  });

  it('makes a repeated DELETE move to Trash once instead of deleting the bookmark for good', async () => {
    const u = await s.createUser();
    const id = (await s.api('POST', '/bookmark', { token: u.token, body: { link: 'https://trash-once.example/' } })).body.item._id;
    const k = key();
    const first = await s.api('DELETE', `/bookmark/${id}`, { token: u.token, headers: { 'idempotency-key': k } });
    expect(first.body.item).toMatchObject({ removed: true, collectionId: -99 });
    const again = await s.api('DELETE', `/bookmark/${id}`, { token: u.token, headers: { 'idempotency-key': k } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const still = await s.api('GET', `/bookmark/${id}`, { token: u.token });
    expect(still.status).toBe(200);
    expect(still.body.item.collectionId).toBe(-99);
  });

  it('is per user: the same key from another user is a separate write', async () => {
    const u = await s.createUser();
    const v = await s.createUser();
    const k = key();
    const body = { link: 'https://shared-key.example/' };
    const a = await s.api('POST', '/bookmark', { token: u.token, body, headers: { 'idempotency-key': k } });
    const b = await s.api('POST', '/bookmark', { token: v.token, body, headers: { 'idempotency-key': k } });
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.body.item._id).not.toBe(a.body.item._id);
    expect(b.body.item.user.$id).toBe(v.id);
  });

  it('refuses the same key on a different request with 422 and changes nothing', async () => {
    const u = await s.createUser();
    const k = key();
    await s.api('POST', '/bookmark', { token: u.token, body: { link: 'https://first.example/' }, headers: { 'idempotency-key': k } });
    const other = await s.api('POST', '/bookmark', { token: u.token, body: { link: 'https://second.example/' }, headers: { 'idempotency-key': k } });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ result: false, status: 422 });
    expect(other.body.errorMessage).toMatch(/different request/);
    expect(await count(u.token)).toBe(1);
  });

  it('replays a client error too, but lets a request that failed validation be sent again', async () => {
    const u = await s.createUser();
    const k = key();
    const missing = await s.api('PUT', '/bookmark/999999', { token: u.token, body: { title: 'x' }, headers: { 'idempotency-key': k } });
    expect(missing.status).toBe(404);
    const again = await s.api('PUT', '/bookmark/999999', { token: u.token, body: { title: 'x' }, headers: { 'idempotency-key': k } });
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const k2 = key();
    const invalid = await s.api('POST', '/bookmark', { token: u.token, body: { title: 'no link' }, headers: { 'idempotency-key': k2 } });
    expect(invalid.status).toBe(400);
    const fixed = await s.api('POST', '/bookmark', { token: u.token, body: { title: 'no link' }, headers: { 'idempotency-key': k2 } });
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    expect(fixed.status).toBe(400);
  });

  it('answers 409 while the first request with the key is still running, and takes over an abandoned one', async () => {
    const u = await s.createUser();
    const k = key();
    // Simulate a request that claimed the key and never answered (the server died mid-request).
    const body = { link: 'https://pending.example/' };
    // The claim must name the same request (method, path, body) for the repeat to count as one.
    const sameFp = (await import('node:crypto')).createHash('sha256').update(`POST /rest/v1/bookmark\n${JSON.stringify(body)}`).digest('hex');
    expect(await s.app.repos.idempotency.start(u.id, k, sameFp, clock.now(), 60_000)).toEqual({ kind: 'run' });
    const busy = await s.api('POST', '/bookmark', { token: u.token, body, headers: { 'idempotency-key': k } });
    expect(busy.status).toBe(409);
    expect(await count(u.token)).toBe(0);
    clock.advance(61_000);
    const taken = await s.api('POST', '/bookmark', { token: u.token, body, headers: { 'idempotency-key': k } });
    expect(taken.status).toBe(200);
    expect(await count(u.token)).toBe(1);
  });

  it('rejects a malformed key and forgets answers after 30 days', async () => {
    const u = await s.createUser();
    const bad = await s.api('POST', '/bookmark', { token: u.token, body: { link: 'https://k.example/' }, headers: { 'idempotency-key': 'has space' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errorMessage).toMatch(/Idempotency-Key/);
    const k = key();
    const body = { link: 'https://old.example/' };
    await s.api('POST', '/bookmark', { token: u.token, body, headers: { 'idempotency-key': k } });
    clock.advance(31 * 24 * 60 * 60 * 1000);
    const later = await s.api('POST', '/bookmark', { token: u.token, body, headers: { 'idempotency-key': k } });
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await count(u.token)).toBe(2);
  });

  it('ignores the header on reads', async () => {
    const u = await s.createUser();
    const res = await s.api('GET', '/user', { token: u.token, headers: { 'idempotency-key': 'has space' } });
    expect(res.status).toBe(200);
  });
});
