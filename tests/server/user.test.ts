import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s.close());

describe('user', () => {
  it('GET /user returns the full record with every config member', async () => {
    const u = await s.createUser('ann@example.test', { name: 'Ann', password: 'correct horse' });
    const res = await s.api('GET', '/user', { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(true);
    const user = res.body.user;
    expect(user).toMatchObject({ _id: u.id, email: 'ann@example.test', fullName: 'Ann', groups: [], password: true, pro: false });
    expect(Object.keys(user.config).sort()).toEqual(
      ['bookmarks_sort', 'bookmarks_view', 'broken_level', 'font_color', 'font_size', 'lang', 'last_collection'].sort(),
    );
    expect(user.email_MD5).toMatch(/^[0-9a-f]{32}$/);
    expect(user.files).toMatchObject({ used: 0 });
    expect(user).not.toHaveProperty('password_hash');
  });

  it('GET /user/{id} shows public fields only', async () => {
    const a = await s.createUser();
    const b = await s.createUser();
    const res = await s.api('GET', `/user/${a.id}`, { token: b.token });
    expect(res.status).toBe(200);
    // the name only: no email, nor its hash (looked up in seconds), plan or sign-up date
    expect(res.body.user).toEqual({ _id: a.id, fullName: expect.any(String) });
    expect((await s.api('GET', '/user/999999', { token: b.token })).status).toBe(404);
    expect((await s.api('GET', '/user/abc', { token: b.token })).status).toBe(400);
  });

  it('PUT /user changes fullName, config members and groups, and keeps other config members', async () => {
    const u = await s.createUser();
    const groups = [{ title: 'Work', hidden: false, sort: 0, collections: [1, 2] }];
    const res = await s.api('PUT', '/user', { token: u.token, body: { fullName: 'New Name', config: { lang: 'de' }, groups } });
    expect(res.status).toBe(200);
    expect(res.body.user.fullName).toBe('New Name');
    expect(res.body.user.config.lang).toBe('de');
    expect(res.body.user.config.bookmarks_sort).toBe('-created');
    expect(res.body.user.groups).toEqual(groups);
    const again = await s.api('GET', '/user', { token: u.token });
    expect(again.body.user.fullName).toBe('New Name');
  });

  it('PUT /user rejects bad input and changes nothing', async () => {
    const u = await s.createUser(undefined, { name: 'Keep' });
    const bad = await s.api('PUT', '/user', { token: u.token, body: { fullName: 42 } });
    expect(bad.status).toBe(400);
    expect(bad.body.errorMessage).toMatch(/fullName/);
    const badGroups = await s.api('PUT', '/user', { token: u.token, body: { groups: [{ title: 'x' }] } });
    expect(badGroups.status).toBe(400);
    const notJson = await s.api('PUT', '/user', { token: u.token, rawBody: '{nope', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect(notJson.body.errorMessage).toMatch(/JSON/);
    expect((await s.api('GET', '/user', { token: u.token })).body.user.fullName).toBe('Keep');
  });

  it('PUT /user with a wrong old password changes nothing', async () => {
    const u = await s.createUser(undefined, { password: 'first-password' });
    const res = await s.api('PUT', '/user', { token: u.token, body: { newpassword: 'second-password', oldpassword: 'wrong', fullName: 'X' } });
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toMatch(/oldpassword/);
    const row = await s.app.repos.users.byId(u.id);
    expect(row!.full_name).not.toBe('X');
  });

  it('GET /user/stats counts system collections', async () => {
    const u = await s.createUser();
    const res = await s.api('GET', '/user/stats', { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      { _id: 0, count: 0 },
      { _id: -1, count: 0 },
      { _id: -99, count: 0 },
    ]);
    expect(res.body.meta).toMatchObject({ _id: u.id, pro: false, duplicates: { count: 0 }, broken: { count: 0 } });
  });
});

describe('rate limits', () => {
  it('sends the headers and answers 429 with Retry-After past the limit', async () => {
    const limited = await startServer({ rateLimit: { perMinute: 3, smallPerMinute: 2 } });
    try {
      const u = await limited.createUser();
      const first = await limited.api('GET', '/user', { token: u.token });
      expect(first.headers.get('x-ratelimit-limit')).toBe('3');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
      expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      await limited.api('GET', '/user', { token: u.token });
      await limited.api('GET', '/user', { token: u.token });
      const over = await limited.api('GET', '/user', { token: u.token });
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ result: false, status: 429 });
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another user has a bucket of their own.
      const other = await limited.createUser();
      expect((await limited.api('GET', '/user', { token: other.token })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
