// The popup's collection picker list, against the real server: a collection made on the server
// while a refresh is already under way still shows up.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { resetExtension } from './helpers/reset.js';
import { TidemarkApi } from '../../lib/api/client/index.js';
import { CollectionsService } from '../../lib/background/collections.js';
import type { Account } from '../../lib/model.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s.close());
beforeEach(() => resetExtension());

it('a refresh asked for while another is under way answers with what the server has after the ask', async () => {
  const user = await s.createUser();
  const account: Account = { serverUrl: s.origin, userId: user.id, email: user.email, name: 'T', method: 'test-token' };
  // The first list request is held until the test lets it go, as a slow network would.
  let releaseFirst!: () => void;
  const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
  let calls = 0;
  const api = new TidemarkApi({
    serverUrl: () => s.origin,
    tokens: { getAccessToken: async () => user.token, refreshAfterUnauthorized: async () => null },
    retry: { retries: 0 },
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).includes('/collections') && ++calls === 1) await firstHeld;
      return res;
    },
  });
  const collections = new CollectionsService({ api, account: async () => account });

  const early = collections.refresh();
  await new Promise((r) => setTimeout(r, 50)); // the first request has been answered (and held)
  await s.api('POST', '/collection', { token: user.token, body: { title: 'Made meanwhile' } });
  const late = collections.view(true);
  releaseFirst();

  expect((await early).map((c) => c.title)).not.toContain('Made meanwhile');
  expect((await late).items.map((c) => c.title)).toContain('Made meanwhile');
  // And the cached list the next popup shows first is the newer one.
  expect((await collections.view(false)).items.map((c) => c.title)).toContain('Made meanwhile');
});

it('the popup\'s fresh list is fetched every time, even right after the last fetch', async () => {
  const user = await s.createUser();
  const account: Account = { serverUrl: s.origin, userId: user.id, email: user.email, name: 'T', method: 'test-token' };
  const api = new TidemarkApi({
    serverUrl: () => s.origin,
    tokens: { getAccessToken: async () => user.token, refreshAfterUnauthorized: async () => null },
    retry: { retries: 0 },
  });
  const collections = new CollectionsService({ api, account: async () => account });
  await collections.view(true);
  await s.api('POST', '/collection', { token: user.token, body: { title: 'Just made' } });
  expect((await collections.view(false)).items.map((c) => c.title)).not.toContain('Just made'); // the cached list, at once
  expect((await collections.view(true)).items.map((c) => c.title)).toContain('Just made');
});
