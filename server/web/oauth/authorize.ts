import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkAuthorizeRequest, errorRedirect, type AuthorizeRequest } from '../../services/oauth/authorize-request.js';
import { withParams } from '../../services/oauth/redirect-uri.js';
import { html } from '../html.js';
import { csrfFailure, csrfField, errorPage, layout, sendPage } from '../layout.js';
import { csrfOk, webState } from '../session.js';

/** The origin a consent form may end up at (its redirect), for the page's CSP form-action. */
function redirectOrigin(uri: string): string {
  return new URL(uri).origin;
}

async function consentPage(app: FastifyInstance, request: FastifyRequest, req: AuthorizeRequest) {
  const user = webState(request).user!;
  const owner = req.client.owner_id === null ? null : await app.repos.users.byId(req.client.owner_id);
  const maker = owner ? html`registered by ${owner.full_name || 'a Tidemark user'}` : html`made by Tidemark`;
  const hidden = (name: string, value: string | undefined) => (value === undefined ? '' : html`<input type="hidden" name="${name}" value="${value}">`);
  return layout(
    request,
    `Authorize ${req.client.name}`,
    html`<h1>Allow <span id="app-name">${req.client.name}</span> to use your Tidemark account?</h1>
<p>${req.client.name} (${maker}) asks for access to the account <strong>${user.email}</strong>.</p>
<p>If you allow it, it can:</p>
<ul>
  <li>read, add, change and delete your bookmarks, collections, highlights and tags;</li>
  <li>see your name and email, and change your account settings.</li>
</ul>
<p>It never sees your password. You can revoke its access at any time under <a href="/apps#authorized">Applications</a>.</p>
<p class="hint">After you answer, you go to ${new URL(req.redirectUri).host}.</p>
<form method="post" action="/oauth/authorize">
  ${csrfField(request)}
  ${hidden('client_id', req.client.client_id)}
  ${hidden('redirect_uri', req.redirectUri)}
  ${hidden('state', req.state)}
  ${hidden('code_challenge', req.codeChallenge)}
  ${req.codeChallenge ? hidden('code_challenge_method', 'S256') : ''}
  <div class="actions">
    <button type="submit" name="decision" value="allow">Allow</button>
    <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
  </div>
</form>
<p class="hint">Not your account? Sign out (at the top), then start again from ${req.client.name}.</p>`,
  );
}

/**
 * `GET /oauth/authorize` shows the consent page (after sign-in); `POST /oauth/authorize` takes the
 * answer. Unknown apps and unregistered redirect URIs get an error page, never a redirect.
 */
export function authorizeRoutes(app: FastifyInstance): void {
  const store = app.repos.oauth;

  // The consent answer is a form post. Its answer is a 303 to a one-time hand-off URL of ours,
  // which then sends the browser on to the app with the 307 the spec names. A 307 straight from
  // the post would make the browser post the form (CSRF token included) on to the app (RFC 9700 4.12).
  const HANDOFF_TTL_MS = 60_000;
  // In the database, not in this process: the continue request may reach another instance.
  async function handOff(reply: FastifyReply, userId: number, location: string): Promise<FastifyReply> {
    const id = await store.handoffs.create({ userId, location, ttlMs: HANDOFF_TTL_MS });
    return reply.redirect(`/oauth/authorize/continue?id=${id}`, 303);
  }

  app.get('/oauth/authorize/continue', async (request, reply) => {
    const id = (request.query as { id?: unknown } | undefined)?.id;
    const user = webState(request).user;
    const location = typeof id === 'string' && user ? await store.handoffs.take(id, user.id) : undefined;
    if (!location) {
      return errorPage(request, reply, 400, 'This link has expired', 'Go back to the application and start signing in again.');
    }
    return reply.redirect(location, 307);
  });

  async function check(request: FastifyRequest, reply: FastifyReply, params: Record<string, unknown>): Promise<AuthorizeRequest | undefined> {
    const result = await checkAuthorizeRequest(store, app.config, params);
    if (result.kind === 'page') {
      errorPage(request, reply, 400, 'This authorization request cannot be used', result.message);
      return undefined;
    }
    if (result.kind === 'redirect') {
      reply.redirect(result.location, request.method === 'GET' ? 307 : 303);
      return undefined;
    }
    return result.request;
  }

  app.get('/oauth/authorize', async (request, reply) => {
    const req = await check(request, reply, (request.query ?? {}) as Record<string, unknown>);
    if (!req) return reply;
    if (!webState(request).user) return reply.redirect(`/signin?next=${encodeURIComponent(request.url)}`, 307);
    return sendPage(reply, 200, await consentPage(app, request, req), { formAction: [redirectOrigin(req.redirectUri)] });
  });

  app.post('/oauth/authorize', async (request, reply) => {
    if (!csrfOk(request)) return csrfFailure(request, reply);
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
    const req = await check(request, reply, body);
    if (!req) return reply;
    const user = webState(request).user;
    if (!user) {
      const query = new URLSearchParams();
      for (const key of ['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method']) {
        if (typeof body[key] === 'string') query.set(key, body[key] as string);
      }
      return reply.redirect(`/signin?next=${encodeURIComponent(`/oauth/authorize?${query}`)}`, 303);
    }
    const decision = body.decision;
    if (decision !== 'allow') {
      if (decision !== 'deny') return errorPage(request, reply, 400, 'No answer', 'Choose Allow or Deny.');
      return handOff(reply, user.id, errorRedirect(req.redirectUri, 'access_denied', 'The user denied the request.', req.state));
    }
    const { code } = await store.codes.create({
      clientPk: req.client.id,
      userId: user.id,
      redirectUri: req.redirectUri,
      codeChallenge: req.codeChallenge ?? null,
      ttlMs: app.config.oauth.codeTtlMs,
    });
    return handOff(reply, user.id, withParams(req.redirectUri, { code, state: req.state }));
  });
}
