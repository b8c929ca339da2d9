import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Bookmark } from '../../../lib/api/types.js';
import { LIMITS } from '../../../lib/api/constants.js';
import { ApiError } from '../../errors.js';
import type { CollectionRow } from '../../repositories/index.js';
import { secureHeaders, PUBLIC_PAGE_CSP } from '../app/security.js';
import { queryText } from '../forms.js';
import type { SafeHtml } from '../html.js';
import { ownOrigin } from '../origin.js';
import { webState } from '../session.js';
import { feedPath, idOfRef, publicPath } from './address.js';
import { atomFeed, FEED_ENTRIES } from './feed.js';
import { notPublicPage, PUBLIC_PER_PAGE, publicPage } from './page.js';

/**
 * The collection a /c/ address names, when it is public right now; null for a private, removed or
 * unknown one, which all answer 404 alike (a 403 would tell that a private collection exists).
 */
async function publicCollection(app: FastifyInstance, ref: string): Promise<CollectionRow | null> {
  const id = idOfRef(ref);
  if (id === null) return null;
  try {
    // The permission module's rule: public is a collection's own flag, never inherited.
    if ((await app.permissions.collection(null, id)).role !== 'public') return null;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
  const row = await app.repos.collections.byId(id);
  return row?.public ? row : null;
}

async function newest(app: FastifyInstance, id: number, page: number, perpage: number): Promise<{ items: Bookmark[]; count: number }> {
  return app.repos.bookmarkQueries.list({ kind: 'collections', collectionIds: [id] }, { sort: '-created', page, perpage });
}

function pageNumber(request: FastifyRequest): number {
  const raw = queryText(request, 'page');
  return /^\d{1,7}$/.test(raw) ? Math.min(Number(raw), LIMITS.pageMax) : 0;
}

function sendPublic(request: FastifyRequest, reply: FastifyReply, status: number, page: SafeHtml): FastifyReply {
  // Signed in, the page carries the sign-out form's CSRF token: kept by nobody.
  const cache = webState(request).user ? 'private, no-store' : 'no-cache';
  return secureHeaders(reply, PUBLIC_PAGE_CSP).status(status).type('text/html; charset=utf-8').header('cache-control', cache).send(page.value);
}

/** GET /c/<id>-<slug>: the read-only page of a public collection (a route of the web pages, with sessions). */
export function publicPageRoutes(app: FastifyInstance): void {
  app.get<{ Params: { ref: string } }>('/c/:ref', async (request, reply) => {
    const row = await publicCollection(app, request.params.ref);
    if (!row) return sendPublic(request, reply, 404, notPublicPage(request));
    const path = publicPath(row);
    const page = pageNumber(request);
    // Old or missing slugs (a renamed collection, a hand-typed /c/12) lead to the current address.
    if (`/c/${request.params.ref}` !== path) return reply.redirect(page ? `${path}?page=${page}` : path, 301);
    const { items, count } = await newest(app, row.id, page, PUBLIC_PER_PAGE);
    const children = (await app.repos.collections.children(row.user_id))
      .filter((c) => c.parent_id === row.id && c.public)
      .map((c) => ({ title: c.title, path: publicPath(c) }));
    const cover = (JSON.parse(row.cover) as string[])[0];
    return sendPublic(request, reply, 200, publicPage(request, { id: row.id, title: row.title, cover, count, path, feedPath: feedPath(row.id), children }, items, page));
  });
}

/** GET /c/<id>/feed.atom: the collection's newest bookmarks as Atom (no sessions: nothing in it depends on who asks). */
export function publicFeedRoutes(app: FastifyInstance): void {
  app.get<{ Params: { ref: string } }>('/c/:ref/feed.atom', { schema: { hide: true } }, async (request, reply) => {
    secureHeaders(reply, PUBLIC_PAGE_CSP);
    const row = await publicCollection(app, request.params.ref);
    if (!row) {
      return reply.status(404).type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send('No public collection here: it may have been made private or removed, or the address is mistyped.\n');
    }
    const { items } = await newest(app, row.id, 0, FEED_ENTRIES);
    const feed = atomFeed({ origin: ownOrigin(app, request), id: row.id, title: row.title, lastUpdate: row.last_update, pagePath: publicPath(row), feedPath: feedPath(row.id) }, items);
    return reply.type('application/atom+xml; charset=utf-8').header('cache-control', 'public, max-age=300').send(feed);
  });
}
