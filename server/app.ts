import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import './fastify-types.js';
import type { ServerConfig } from './config.js';
import type { Store } from './db/store.js';
import { ErrorEnvelope } from '../lib/api/schemas/common.js';
import { installAuth } from './plugins/auth.js';
import { installCors } from './plugins/cors.js';
import { installDeclaredErrors } from './plugins/declared-errors.js';
import { answerFrameworkError, installErrorHandling } from './plugins/errors.js';
import { finishWith } from './plugins/hook-step.js';
import { installHealth } from './plugins/health.js';
import { installIdempotency } from './plugins/idempotency.js';
import { installJsonBody } from './plugins/json-body.js';
import { installOpenApi } from './plugins/openapi.js';
import { installApiRateLimit, installRateLimit } from './plugins/rate-limit.js';
import { installShutdown } from './plugins/shutdown.js';
import { installValidators, normaliseQuery } from './plugins/validation.js';
import { logSerializers, prettyStream } from './logging.js';
import api from './routes/index.js';
import { createServices } from './services/index.js';
import { Permissions } from './services/permissions.js';
import web from './web/index.js';

export const API_PREFIX = '/rest/v1';

/** Origins allowed to call the API from a browser: the extension's pages on every engine. */
function isAllowedOrigin(origin: string): boolean {
  return /^(chrome-extension|moz-extension|safari-web-extension):\/\/[\w-]+$/.test(origin);
}

/** Levels at which Fastify writes a line per request. */
const REQUEST_LOG_LEVELS = new Set(['trace', 'debug', 'info']);

/** Builds the whole service on an open database (closed with the app). The caller listens and closes. */
export async function buildApp(config: ServerConfig, store: Store): Promise<FastifyInstance> {
  const app = Fastify({
    // One JSON line per request (or readable lines for a terminal, `serve --log-format pretty`),
    // through serializers that keep headers, cookies and query values out (logging.ts).
    logger: {
      level: config.logLevel,
      serializers: logSerializers,
      ...(config.logFormat === 'pretty' ? { stream: prettyStream(config.logDestination) } : config.logDestination ? { stream: config.logDestination } : {}),
    },
    // A request's own logger (bound to its request id) is made only when request logs are written
    // (level info or lower): the id correlates nothing in warn/error lines alone, and the child
    // logger cost ~1.5 % of a GET's CPU.
    childLoggerFactory(logger, bindings, opts) {
      return REQUEST_LOG_LEVELS.has(config.logLevel) ? logger.child(bindings, opts) : logger;
    },
    bodyLimit: config.bodyLimit,
    forceCloseConnections: 'idle',
    // Behind a reverse proxy, per-IP limits (sign-in throttling, anonymous rate limits) need the client's
    // address. One hop: the address the proxy itself added, last in X-Forwarded-For; an address a client
    // wrote in front of it (a proxy that appends instead of replacing) is not believed.
    trustProxy: config.trustProxy ? (_address: string, hop: number) => hop < 1 : false,
    return503OnClosing: true,
    ajv: { customOptions: { coerceTypes: 'array' } },
    // Requests the router itself refuses (a malformed URL, a path segment over maxParamLength)
    // get the error envelope and rate-limit headers like every other answer.
    frameworkErrors: answerFrameworkError,
    routerOptions: { maxParamLength: 1000 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const { repos } = store;
  store.start((message) => app.log.warn({ backend: store.backend }, message));
  app.decorate('store', store);
  app.decorate('config', config);
  app.decorate('repos', repos);
  app.decorate('permissions', new Permissions(repos.access));
  // Fastify made its logger with pino (the logger options above), so it is a pino Logger.
  app.decorate('services', createServices(config, repos, app.permissions, app.log as Logger));
  // Background jobs stop before the server closes, so they can hand running jobs back while the database
  // is open. The parse pool and the mailer close only after the requests in flight have finished (onClose
  // below): a page being read when SIGTERM arrives still gets its answer.
  app.addHook('preClose', async () => {
    await Promise.all([app.services.jobs.stop(), app.services.textJob.stop()]);
  });
  // Shutting down: requests in flight finish; no client connection (kept alive, or opened ahead of
  // need and never used) holds the close open until it times out. No per-request hook.
  installShutdown(app);
  // The file storage is tried before anything is served: a wrong bucket or key stops the start with a message.
  app.addHook('onReady', async () => {
    await app.services.files.check();
    app.log.info({ files: app.services.files.description }, 'file storage ready');
    app.services.jobs.start();
    app.services.textJob.start();
  });

  installValidators(app);
  installErrorHandling(app);
  installRateLimit(app);
  app.addSchema(ErrorEnvelope);

  installJsonBody(app);

  // Only routes that declare query parameters read them; the others skip this step.
  app.addHook('onRoute', (route) => {
    if (!route.schema?.querystring) return;
    const own = route.preValidation ? [route.preValidation].flat() : [];
    route.preValidation = [
      (request, _reply, done) => {
        if (request.query && typeof request.query === 'object') {
          request.query = normaliseQuery(request.query as Record<string, unknown>);
        }
        done();
      },
      ...own,
    ];
  });

  installCors(app, {
    isAllowedOrigin,
    exposedHeaders: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'etag', 'retry-after', 'idempotent-replayed'],
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['authorization', 'content-type', 'idempotency-key'],
    maxAgeS: 600,
  });

  await installOpenApi(app, API_PREFIX);
  installHealth(app);

  await app.register(
    async (scope) => {
      installDeclaredErrors(scope);
      const authenticate = installAuth(scope);
      const countCall = installApiRateLimit(scope);
      // One hook for both steps, a callback hook: most calls find their token and their count in
      // memory, and then pass without a single promise.
      scope.addHook('onRequest', (request, reply, done) =>
        finishWith(() => {
          const authenticating = authenticate(request);
          return authenticating ? authenticating.then(() => countCall(request, reply)) : countCall(request, reply);
        }, done),
      );
      installIdempotency(scope);
      await scope.register(api);
    },
    { prefix: API_PREFIX },
  );
  await app.register(web);

  app.addHook('onClose', async () => {
    await app.services.stop();
    await store.close();
  });
  return app;
}
