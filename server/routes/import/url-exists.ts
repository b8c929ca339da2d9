import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { UrlExistsRequest, UrlExistsResponse } from '../../../lib/api/schemas/import.js';
import type { UrlExistsResponse as UrlExistsAnswer } from '../../../lib/api/types.js';
import { normalizeUrl } from '../../../lib/api/url.js';
import { errorReplies } from '../error-replies.js';

const errors = errorReplies(400);

/** Duplicate checks: POST and GET /import/url/exists. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos } = app;

  /**
   * Matches by normalizeUrl (scheme, `www.`, trailing slash, tracking parameters and non-route
   * fragments do not count) against the caller's saved, not removed bookmarks. Links that are
   * not http(s) cannot be saved, so they are never found.
   */
  const check = async (userId: number, urls: string[]): Promise<UrlExistsAnswer> => {
    const keys = urls.map((u) => normalizeUrl(u)).filter((k): k is string => k !== null);
    const found = keys.length ? await repos.bookmarks.findSavedByKeys(userId, keys) : [];
    if (found.length === 0) return { result: false, ids: [] };
    return { result: true, ids: found.map((f) => f._id), duplicates: found.map((f) => ({ _id: f._id, link: f.link })) };
  };

  app.post(
    '/import/url/exists',
    {
      schema: {
        tags: ['Import'],
        summary: 'Which of up to 100 URLs are already saved (result false with ids [] when none is)',
        body: UrlExistsRequest,
        response: { 200: UrlExistsResponse, ...errors },
      },
    },
    async (request) => check(request.userId!, request.body.urls),
  );

  app.get(
    '/import/url/exists',
    {
      schema: {
        tags: ['Import'],
        summary: 'Whether one URL is already saved',
        querystring: Type.Object({ url: Type.String({ minLength: 1, maxLength: 8192 }) }),
        response: { 200: UrlExistsResponse, ...errors },
      },
    },
    async (request) => check(request.userId!, [request.query.url]),
  );
};
export default routes;
