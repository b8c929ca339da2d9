// Crafted input gets a 4xx envelope naming the problem, never a 5xx: huge page numbers, integers
// past what a number holds exactly, and JSON nested deeper than LIMITS.jsonDepthMax (on any
// route, with or without a body schema, with an Idempotency-Key or not).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../lib/api/constants.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let user: { id: number; token: string };

const deep = (depth: number, leaf = '1') => '['.repeat(depth) + leaf + ']'.repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

function expect4xx(res: { status: number; body: any }, status = 400) {
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(status);
  expect(res.body).toMatchObject({ result: false, status });
  expect(typeof res.body.errorMessage).toBe('string');
}

beforeAll(async () => {
  s = await startServer();
  user = await s.createUser();
});
afterAll(async () => s.close());

describe('crafted input answers 4xx', () => {
  it('GET /highlights and /bookmarks with page=400000000000000000', async () => {
    for (const p of ['/highlights?page=400000000000000000', '/bookmarks/0?page=400000000000000000', '/highlights/0?page=99999999999']) {
      const res = await s.api('GET', p, { token: user.token });
      expect4xx(res);
      expect(res.body.errorMessage).toMatch(/querystring\.page/);
    }
    // The highest page allowed is answered (empty).
    const last = await s.api('GET', `/highlights?page=${LIMITS.pageMax}`, { token: user.token });
    expect(last.status).toBe(200);
    expect(last.body.items).toEqual([]);
  });

  it('POST /bookmark with "order": 1e30, and integers past 2^53 anywhere', async () => {
    const res = await s.api('POST', '/bookmark', { token: user.token, rawBody: '{"link":"https://a.example/","order":1e30}', headers: { 'content-type': 'application/json' } });
    expect4xx(res);
    expect(res.body.errorMessage).toMatch(/body\.order/);
    const huge = await s.api('POST', '/bookmark', { token: user.token, rawBody: '{"link":"https://a.example/","collectionId":123456789012345678901}', headers: { 'content-type': 'application/json' } });
    expect4xx(huge);
    const groups = await s.api('PUT', '/user', {
      token: user.token,
      rawBody: '{"groups":[{"title":"g","hidden":false,"sort":0,"collections":[18446744073709551617]}]}',
      headers: { 'content-type': 'application/json' },
    });
    expect4xx(groups);
    expect(groups.body.errorMessage).toMatch(/groups/);
    const cursor = await s.api('GET', '/links?since=18446744073709551617', { token: user.token });
    expect4xx(cursor);
    // Nothing was saved by the refused requests.
    expect((await s.api('GET', '/bookmarks/0', { token: user.token })).body.count).toBe(0);
  });

  it(`JSON nested more than ${LIMITS.jsonDepthMax} deep is refused on every route, before anything walks it`, async () => {
    const headers = { 'content-type': 'application/json' };
    const cases: [string, string, string][] = [
      ['DELETE', '/bookmark/1', deep(10_000)], // a route without a body schema
      ['POST', '/bookmark', deepObject(10_000)],
      ['PUT', '/user', `{"groups":[{"title":"g","hidden":false,"sort":0,"collections":[],"x":${deep(10_000)}}]}`],
      ['POST', '/collection', deep(LIMITS.jsonDepthMax + 1)],
    ];
    for (const [method, path, rawBody] of cases) {
      for (const idem of [false, true]) {
        const res = await s.api(method, path, { token: user.token, rawBody, headers: idem ? { ...headers, 'idempotency-key': `k-${Math.random()}` } : headers });
        expect4xx(res);
        expect(res.body.errorMessage).toMatch(new RegExp(`more than ${LIMITS.jsonDepthMax} deep`));
      }
    }
    // Still answering, and a body at the limit is read normally.
    const okBody = JSON.stringify({ title: 'deep enough', x: JSON.parse(deep(LIMITS.jsonDepthMax - 1)) });
    const ok = await s.api('POST', '/collection', { token: user.token, rawBody: okBody, headers });
    expect(ok.status).toBe(200);
  });

  it('brackets inside strings do not count as nesting', async () => {
    const res = await s.api('POST', '/collection', { token: user.token, body: { title: '['.repeat(100) + '{"\\"'.repeat(20) } });
    expect(res.status).toBe(200);
    expect(res.body.item.title.startsWith('[[[')).toBe(true);
  });

  it('the OAuth token endpoint refuses deep JSON with 400 too', async () => {
    const res = await fetch(`${s.origin}/oauth/access_token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: deep(10_000) });
    expect(res.status).toBe(400);
  });
});
