import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OAuthClient } from '../../repositories/index.js';
import { parseRedirectList, redirectListProblem } from '../../services/oauth/redirect-uri.js';
import { field, queryText } from '../forms.js';
import { html, type SafeHtml } from '../html.js';
import { csrfFailure, csrfField, errorPage, layout, notice, requireSignedIn, sendPage } from '../layout.js';
import { csrfOk, webState } from '../session.js';

const DONE: Record<string, string> = {
  redirects: 'The redirect URLs were saved.',
  'token-revoked': 'The test token was revoked: it no longer works.',
  deleted: 'The application was deleted and every token issued to it revoked.',
  'access-revoked': 'Access was revoked: that app can no longer use your account until you authorize it again.',
};

function date(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A secret shown once, with the reminder that it cannot be shown again. */
function secretBox(label: string, secret: string): SafeHtml {
  return html`<div class="notice ok" role="status">
  <p><strong>${label}</strong> (copy it now: it is stored only as a hash and will not be shown again)</p>
  <p class="secret" id="shown-secret">${secret}</p>
</div>`;
}

/** The application console: register apps, manage their credentials and test tokens, see authorized apps. */
export function appPages(app: FastifyInstance): void {
  const store = app.repos.oauth;

  async function listPage(request: FastifyRequest, values: { name?: string; redirects?: string; kind?: string; error?: string } = {}) {
    const user = webState(request).user!;
    const [apps, authorized] = await Promise.all([store.clients.listForOwner(user.id), store.grants.listAuthorizedApps(user.id)]);
    const kind = values.kind === 'public' ? 'public' : 'confidential';
    return layout(
      request,
      'Applications',
      html`<h1>Applications</h1>
${notice('ok', DONE[queryText(request, 'done')])}
<h2>Your applications</h2>
${
  apps.length === 0
    ? html`<p class="hint">You have not registered an application yet.</p>`
    : html`<ul>${apps.map((a) => html`<li><a href="/apps/${encodeURIComponent(a.client_id)}">${a.name}</a> (${a.kind === 'public' ? 'public client' : 'confidential client'})</li>`)}</ul>`
}
<h2 id="register">Register an application</h2>
${notice('error', values.error)}
<form method="post" action="/apps">
  ${csrfField(request)}
  <label for="app-name">Name</label>
  <input id="app-name" name="name" type="text" required maxlength="100" value="${values.name ?? ''}">
  <label for="app-redirects">Redirect URLs (one per line)</label>
  <textarea id="app-redirects" name="redirect_uris" required aria-describedby="redirects-hint">${values.redirects ?? ''}</textarea>
  <p class="hint" id="redirects-hint">Codes are sent only to these exact URLs. https, or http on 127.0.0.1/localhost.
  A browser extension's is https://&lt;extension-id&gt;.chromiumapp.org/… (Chrome) or https://&lt;id&gt;.extensions.allizom.org/ (Firefox).</p>
  <fieldset>
    <legend>Client type</legend>
    <label><input type="radio" name="kind" value="confidential"${kind === 'confidential' ? html` checked` : ''}> Confidential: a server that keeps a Client Secret</label>
    <label><input type="radio" name="kind" value="public"${kind === 'public' ? html` checked` : ''}> Public: a browser extension or app that cannot keep a secret (must use PKCE)</label>
  </fieldset>
  <button type="submit">Register</button>
</form>
<h2 id="authorized">Apps you have authorized</h2>
${
  authorized.length === 0
    ? html`<p class="hint">You have not authorized any application.</p>`
    : html`<table><thead><tr><th scope="col">Application</th><th scope="col">Since</th><th scope="col"><span class="hint">Action</span></th></tr></thead><tbody>
${authorized.map(
  (a) => html`<tr><td>${a.name}</td><td>${date(a.first_authorized)}</td><td>
  <form method="post" action="/apps/authorized/${encodeURIComponent(a.client_id)}/revoke" class="inline">${csrfField(request)}<button type="submit" class="secondary">Revoke access</button></form></td></tr>`,
)}</tbody></table>`
}`,
    );
  }

  async function appPage(request: FastifyRequest, client: OAuthClient, extra: { shown?: SafeHtml; error?: string; redirects?: string } = {}) {
    const user = webState(request).user!;
    const tokens = (await app.repos.tokens.listForUser(user.id)).filter((t) => t.kind === 'test' && t.client_id === client.client_id);
    const base = `/apps/${encodeURIComponent(client.client_id)}`;
    return layout(
      request,
      client.name,
      html`<p><a href="/apps">← Applications</a></p>
<h1>${client.name}</h1>
${notice('ok', DONE[queryText(request, 'done')])}
${extra.shown ?? ''}
${client.status !== 'active' ? notice('error', 'This application is suspended: it cannot get new tokens.') : ''}
<h2>Credentials</h2>
<table><tbody>
<tr><th scope="row">Client ID</th><td class="secret" id="client-id">${client.client_id}</td></tr>
<tr><th scope="row">Client type</th><td>${client.kind === 'public' ? 'Public (no secret; PKCE S256 required)' : 'Confidential'}</td></tr>
${client.kind === 'confidential' ? html`<tr><th scope="row">Client Secret</th><td>Shown only once, when made.
  <form method="post" action="${base}/secret" class="inline">${csrfField(request)}<button type="submit" class="link">Regenerate secret</button></form>
  <p class="hint">Regenerating stops the old secret at once.</p></td></tr>` : ''}
</tbody></table>
<h2 id="redirects">Redirect URLs</h2>
${notice('error', extra.error)}
<form method="post" action="${base}/redirects">
  ${csrfField(request)}
  <label for="redirect-uris">One per line; authorization requests must use one of them exactly</label>
  <textarea id="redirect-uris" name="redirect_uris" required>${extra.redirects ?? client.redirect_uris.join('\n')}</textarea>
  <button type="submit">Save redirect URLs</button>
</form>
<h2 id="test-tokens">Test tokens</h2>
<p class="hint">A test token gives access to your own data only, without the authorization flow. It never expires: revoke it when you are done.</p>
${
  tokens.length === 0
    ? html`<p class="hint">No test tokens.</p>`
    : html`<ul>${tokens.map(
        (t) => html`<li>Made ${date(t.created_at)}
        <form method="post" action="${base}/test-tokens/${t.id}/revoke" class="inline">${csrfField(request)}<button type="submit" class="link">Revoke</button></form></li>`,
      )}</ul>`
}
<form method="post" action="${base}/test-tokens">${csrfField(request)}<button type="submit">Create test token</button></form>
<h2 id="delete">Delete</h2>
<form method="post" action="${base}/delete">${csrfField(request)}<button type="submit" class="secondary">Delete this application</button></form>
<p class="hint">Deleting revokes every token issued to it.</p>`,
    );
  }

  const guard = (request: FastifyRequest, reply: FastifyReply) => requireSignedIn(request, reply, '/apps');

  /** The caller's own application named in the path; other people's apps look like unknown ones. */
  async function ownApp(request: FastifyRequest<{ Params: { clientId: string } }>, reply: FastifyReply): Promise<OAuthClient | undefined> {
    const client = await store.clients.byClientId(request.params.clientId);
    if (!client || client.owner_id !== webState(request).user!.id) {
      errorPage(request, reply, 404, 'Application not found', 'You have no application with this Client ID. Open it from your list of applications.');
      return undefined;
    }
    return client;
  }

  app.get('/apps', async (request, reply) => {
    if (!guard(request, reply)) return reply;
    return sendPage(reply, 200, await listPage(request));
  });

  app.post('/apps', async (request, reply) => {
    if (!guard(request, reply)) return reply;
    if (!csrfOk(request)) return csrfFailure(request, reply);
    const name = field(request, 'name', 200).trim();
    const redirects = field(request, 'redirect_uris', 25_000);
    const kindField = field(request, 'kind');
    const values = { name, redirects, kind: kindField };
    if (!name || name.length > 100) return sendPage(reply, 400, await listPage(request, { ...values, error: 'Enter a name of 1 to 100 characters.' }));
    if (kindField !== 'public' && kindField !== 'confidential') {
      return sendPage(reply, 400, await listPage(request, { ...values, error: 'Choose the client type: confidential or public.' }));
    }
    const uris = parseRedirectList(redirects);
    const problem = redirectListProblem(uris);
    if (problem) return sendPage(reply, 400, await listPage(request, { ...values, error: problem }));
    const { client, secret } = await store.clients.create({ ownerId: webState(request).user!.id, name, kind: kindField, redirectUris: uris });
    const shown = secret
      ? secretBox('Client Secret', secret)
      : html`<p class="notice ok" role="status">Registered. This public client has no secret: it must use PKCE (S256).</p>`;
    return sendPage(reply, 201, await appPage(request, client, { shown }));
  });

  app.get<{ Params: { clientId: string } }>('/apps/:clientId', async (request, reply) => {
    if (!guard(request, reply)) return reply;
    const client = await ownApp(request, reply);
    if (!client) return reply;
    return sendPage(reply, 200, await appPage(request, client));
  });

  app.post<{ Params: { clientId: string } }>('/apps/:clientId/redirects', async (request, reply) => {
    if (!guard(request, reply)) return reply;
    if (!csrfOk(request)) return csrfFailure(request, reply);
    const client = await ownApp(request, reply);
    if (!client) return reply;
    const redirects = field(request, 'redirect_uris', 25_000);
    const uris = parseRedirectList(redirects);
    const problem = redirectListProblem(uris);
    if (problem) return sendPage(reply, 400, await appPage(request, client, { error: problem, redirects }));
    await store.clients.update(client.id, { redirectUris: uris });
    return reply.redirect(`/apps/${encodeURIComponent(client.client_id)}?done=redirects`, 303);
  });

  app.post<{ Params: { clientId: string } }>('/apps/:clientId/secret', async (request, reply) => {
    if (!guard(request, reply)) return reply;
    if (!csrfOk(request)) return csrfFailure(request, reply);
    const client = await ownApp(request, reply);
    if (!client) return reply;
    if (client.kind !== 'confidential') return errorPage(request, reply, 400, 'No secret', 'Public clients have no secret; they use PKCE instead.');
    const secret = await store.clients.regenerateSecret(client.id);
    return sendPage(reply, 200, await appPage(request, client, { shown: secretBox('New Client Secret', secret) }));
  });

  app.post<{ Params: { clientId: string } }>('/apps/:clientId/test-tokens', async (request, reply) => {
    if (!guard(request, reply)) return reply;
    if (!csrfOk(request)) return csrfFailure(request, reply);
    const client = await ownApp(request, reply);
    if (!client) return reply;
    const { token } = await app.repos.tokens.create({ userId: client.owner_id!, kind: 'test', clientId: client.client_id });
    return sendPage(reply, 201, await appPage(request, client, { shown: secretBox('Test token', token) }));
  });

  app.post<{ Params: { clientId: string; tokenId: string } }>('/apps/:clientId/test-tokens/:tokenId/revoke', async (request, reply) => {
    if (!guard(request, reply)) return reply;
    if (!csrfOk(request)) return csrfFailure(request, reply);
    const client = await ownApp(request, reply);
    if (!client) return reply;
    const id = Number(request.params.tokenId);
    const token = (await app.repos.tokens.listForUser(client.owner_id!)).find((t) => t.id === id && t.kind === 'test' && t.client_id === client.client_id);
    if (!token) return errorPage(request, reply, 404, 'Token not found', 'This application has no such test token (it may be revoked already).');
    await app.repos.tokens.revoke(token.id);
    return reply.redirect(`/apps/${encodeURIComponent(client.client_id)}?done=token-revoked`, 303);
  });

  app.post<{ Params: { clientId: string } }>('/apps/:clientId/delete', async (request, reply) => {
    if (!guard(request, reply)) return reply;
    if (!csrfOk(request)) return csrfFailure(request, reply);
    const client = await ownApp(request, reply);
    if (!client) return reply;
    await store.clients.delete(client.id);
    return reply.redirect('/apps?done=deleted', 303);
  });

  app.post<{ Params: { clientId: string } }>('/apps/authorized/:clientId/revoke', async (request, reply) => {
    if (!guard(request, reply)) return reply;
    if (!csrfOk(request)) return csrfFailure(request, reply);
    const client = await store.clients.byClientId(request.params.clientId);
    if (client) await store.grants.revokeForUserClient(webState(request).user!.id, client.id);
    return reply.redirect('/apps?done=access-revoked', 303);
  });
}
