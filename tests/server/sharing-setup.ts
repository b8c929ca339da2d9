// Sharing through the real API for tests: invite by email, read the mail the dev mailer wrote to the
// outbox, follow its join link. No shortcut into the database.
import { expect } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { joinLinkIn, lastMailTo } from './sharing-mail.js';

export type TestUser = { id: number; email: string; token: string };

/** Invites `emails` to the collection as `by`; expects success. */
export async function invite(s: TestServer, by: TestUser, collectionId: number, emails: string[], role: 'member' | 'viewer') {
  const res = await s.api('POST', `/collection/${collectionId}/sharing`, { token: by.token, body: { role, emails } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { result: true; emails: string[] };
}

/** `user` follows the join link of the newest invitation mailed to them. */
export async function joinFromOutbox(s: TestServer, user: TestUser) {
  const link = joinLinkIn(lastMailTo(s.dataDir, user.email).text);
  return s.api('POST', `/collection/${link.collectionId}/join`, { token: user.token, body: { token: link.token } });
}

/** Shares the collection with `user` in `role`: invitation by email, then join. */
export async function share(s: TestServer, owner: TestUser, collectionId: number, user: TestUser, role: 'member' | 'viewer') {
  await invite(s, owner, collectionId, [user.email], role);
  const res = await joinFromOutbox(s, user);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.item;
}

export async function createCollection(s: TestServer, by: TestUser, title: string, parent?: number): Promise<number> {
  const res = await s.api('POST', '/collection', { token: by.token, body: { title, ...(parent ? { parent: { $id: parent } } : {}) } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.item._id;
}

export async function createBookmark(s: TestServer, by: TestUser, collectionId: number, body: Record<string, unknown> = {}) {
  const res = await s.api('POST', '/bookmark', {
    token: by.token,
    body: { link: `https://example.com/${Math.random().toString(36).slice(2)}`, collectionId, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.item;
}
