import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../html.js';
import { layout, sendPage, signInRedirect } from '../layout.js';
import { webState } from '../session.js';
import { secureHeaders } from './security.js';
import { shareRoutes } from './share.js';
import { fileIn, IMMUTABLE, indexFile, REVALIDATE, sendBuiltFile } from './static-files.js';

/** Where sign-in leads when no `next` is given: the library once the web app is built, else the account page. */
export function homePath(app: FastifyInstance): string {
  return indexFile(app.config.webAppDir) ? '/' : '/account';
}

function notBuilt(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendPage(
    reply,
    503,
    layout(
      request,
      'The web app is not built',
      html`<h1>The web app is not built yet</h1>
<p role="alert">This server has no copy of the Tidemark web app to show here, so your library cannot open in the browser yet. Your bookmarks are safe, and the extension and the API work as usual.</p>
<p>If you run this server: in the Tidemark folder run <code>npx vite build -c vite.web.config.ts</code> (it writes <code>dist/web/</code>), then reload this page. No restart is needed.</p>
<p><a href="/account">Go to your account</a></p>`,
    ),
  );
}

/**
 * The web app: the library at `/` for a signed-in browser (sign-in first otherwise, and back to the
 * very address afterwards), its hashed files under /assets/ kept for a year, and the files whose
 * names never change (index.html, the manifest, the service worker, icons) checked on every use.
 * Only `/` needs a session: the app's code holds no data, and browsers fetch a manifest without cookies.
 */
export function webAppRoutes(app: FastifyInstance): void {
  const root = () => app.config.webAppDir;

  app.get('/', async (request, reply) => {
    secureHeaders(reply);
    if (!webState(request).user) return signInRedirect(request, reply);
    const index = indexFile(root());
    if (!index) return notBuilt(request, reply);
    return sendBuiltFile(request, reply, index, REVALIDATE);
  });

  app.get('/manifest.webmanifest', async (request, reply) => sendBuiltFile(request, secureHeaders(reply), fileIn(root(), 'manifest.webmanifest'), REVALIDATE));

  app.get('/sw.js', async (request, reply) => {
    // The worker may control the whole site (the library and the share target).
    secureHeaders(reply).header('service-worker-allowed', '/');
    return sendBuiltFile(request, reply, fileIn(root(), 'sw.js'), REVALIDATE);
  });

  app.get<{ Params: { '*': string } }>('/assets/*', async (request, reply) =>
    sendBuiltFile(request, secureHeaders(reply), fileIn(root(), `assets/${request.params['*']}`), IMMUTABLE),
  );

  app.get<{ Params: { '*': string } }>('/icons/*', async (request, reply) =>
    sendBuiltFile(request, secureHeaders(reply), fileIn(root(), `icons/${request.params['*']}`), REVALIDATE),
  );

  shareRoutes(app);
}
