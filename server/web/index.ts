import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../errors.js';
import { errorPage } from './layout.js';
import { accountPages } from './pages/account.js';
import { appPages } from './pages/apps.js';
import { authPages } from './pages/auth.js';
import { joinPages } from './pages/join.js';
import { authorizeRoutes } from './oauth/authorize.js';
import { tokenRoutes } from './oauth/token.js';
import { installWebSessions } from './session.js';
import { webAppRoutes } from './app/index.js';
import { publicFeedRoutes, publicPageRoutes } from './public/routes.js';

const CSS = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'static', 'web.css'), 'utf8');

/** Failures on pages are pages too, saying what happened and what to do. */
function installPageErrors(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof ApiError && err.status === 429) {
      reply.header('retry-after', String(err.extra.retryAfter ?? 60));
      return errorPage(request, reply, 429, 'Too many requests', err.message);
    }
    if (err instanceof ApiError && err.status < 500) return errorPage(request, reply, err.status, 'Something is wrong with this request', err.message);
    if (err instanceof SyntaxError || err.code?.startsWith('FST_ERR_CTP_')) err.statusCode ??= 400;
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) {
      request.log.error({ err }, 'unhandled error on a web page');
      return errorPage(request, reply, 500, 'Something went wrong', 'The server could not finish this. Try again; if it keeps happening, tell the operator of this service.');
    }
    const message =
      status === 413
        ? 'The form is too large to send.'
        : status === 415
          ? 'Send this form from the page it belongs to.'
          : 'The form could not be read. Reload the page and send it again.';
    return errorPage(request, reply, status, 'The form could not be sent', message);
  });
}

/**
 * Server-rendered pages and OAuth endpoints, mounted at the root: /signin, /account, /apps, /oauth/...,
 * the web app (/, /assets/, /share), and public collection pages and feeds (/c/).
 */
const web: FastifyPluginAsyncTypebox = async (app) => {
  // Form bodies only here: the REST API stays JSON-only.
  await app.register(formbody, { bodyLimit: 64 * 1024 });

  app.addHook('onReady', async () => {
    await app.repos.oauth.codes.purgeExpired();
  });

  app.get('/web.css', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(CSS),
  );

  // Browsers ask for it on every page; there is none.
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => reply.status(204).send());

  await app.register(async (pages) => {
    pages.addHook('onRoute', (route) => {
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    installWebSessions(pages);
    installPageErrors(pages);
    authPages(pages);
    accountPages(pages);
    appPages(pages);
    joinPages(pages);
    authorizeRoutes(pages);
    webAppRoutes(pages);
    publicPageRoutes(pages);
  });

  await app.register(async (feeds) => {
    feeds.addHook('onRoute', (route) => {
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    publicFeedRoutes(feeds);
  });

  // JSON endpoints keep the service's JSON error envelope.
  await app.register(async (json) => {
    tokenRoutes(json);
  });
};
export default web;
