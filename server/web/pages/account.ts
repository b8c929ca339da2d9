import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import { changeEmail, changePassword } from '../../services/accounts.js';
import { isProvider, PROVIDERS, providerSettings } from '../../services/oauth/providers.js';
import { isEmailAddress, field, queryText } from '../forms.js';
import { html } from '../html.js';
import { csrfFailure, csrfField, errorPage, layout, notice, requireSignedIn, sendPage } from '../layout.js';
import { ownOrigin } from '../origin.js';
import { csrfOk, signOut, webState } from '../session.js';

/**
 * The bookmarklet: opens the share target with the current page's address and title in a new
 * window. The origin is written as a JSON string literal, and `%` is escaped because browsers
 * percent-decode a javascript: URL before running it.
 */
function bookmarkletHref(origin: string): string {
  const code = `(function(){window.open(${JSON.stringify(`${origin}/share?url=`)}+encodeURIComponent(location.href)+'&title='+encodeURIComponent(document.title),'_blank')})()`;
  return `javascript:${code.replace(/%/g, '%25')}`;
}

/** Confirmations shown after a change (fixed texts: nothing from the query string is echoed). */
const DONE: Record<string, string> = {
  profile: 'Your name was saved.',
  email: 'Your email was changed.',
  password: 'Your password was changed. You were signed out everywhere else, and apps you authorized must be authorized again.',
  connected: 'The account was connected.',
  disconnected: 'The account was disconnected.',
};

/** Failures of a connection attempt, reported back to this page by the provider callback. */
const FAILED: Record<string, string> = {
  'connect-denied': 'The account was not connected: access was not granted on the provider\'s page.',
  'connect-failed': 'The account could not be connected: the provider did not confirm it. Try again later.',
};

const PROVIDER_LABELS: Record<string, string> = {
  facebook: 'Facebook',
  google: 'Google',
  twitter: 'X (Twitter)',
  vkontakte: 'VK',
  dropbox: 'Dropbox',
  gdrive: 'Google Drive',
};

async function accountPage(app: FastifyInstance, request: FastifyRequest, errors: { form?: string; message?: string } = {}) {
  const user = webState(request).user!;
  const connections = await app.repos.oauth.connections.listForUser(user.id);
  const connected = new Set(connections.map((c) => c.provider));
  const available = PROVIDERS.filter((p) => providerSettings(app.config.oauthProviders, p) || connected.has(p));
  const done = DONE[queryText(request, 'done')];
  const errorFor = (form: string) => notice('error', errors.form === form ? errors.message : undefined);
  return layout(
    request,
    'Your account',
    html`<h1>Your account</h1>
${notice('ok', done)}
${notice('error', FAILED[queryText(request, 'done')])}
<p>Signed in as <strong>${user.email}</strong>.</p>
<p><a href="/">Open your library</a>: everything you saved, in this browser or on your phone.</p>

<h2 id="bookmarklet">Save from any browser</h2>
<p>Drag this link to your browser's bookmarks bar: <a class="bookmarklet" href="${bookmarkletHref(ownOrigin(app, request))}">Save to Tidemark</a>.
Then, on any page you want to keep, click it in the bookmarks bar: a Tidemark window opens with the page filled in, ready to save. It works in browsers without the Tidemark extension.</p>

<h2 id="profile">Name</h2>
${errorFor('profile')}
<form method="post" action="/account/profile">
  ${csrfField(request)}
  <label for="fullName">Full name</label>
  <input id="fullName" name="fullName" type="text" autocomplete="name" required maxlength="200" value="${user.full_name}">
  <button type="submit">Save name</button>
</form>

<h2 id="email">Email</h2>
${errorFor('email')}
<form method="post" action="/account/email">
  ${csrfField(request)}
  <label for="new-email">New email</label>
  <input id="new-email" name="email" type="email" autocomplete="email" required maxlength="320" value="${user.email}">
  <label for="email-password">Current password</label>
  <input id="email-password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Change email</button>
</form>

<h2 id="password">Password</h2>
${errorFor('password')}
<form method="post" action="/account/password">
  ${csrfField(request)}
  <input type="email" name="username" autocomplete="username" value="${user.email}" hidden>
  <label for="oldpassword">Current password</label>
  <input id="oldpassword" name="oldpassword" type="password" autocomplete="current-password" required>
  <label for="newpassword">New password</label>
  <input id="newpassword" name="newpassword" type="password" autocomplete="new-password" required minlength="8" aria-describedby="newpassword-hint">
  <p class="hint" id="newpassword-hint">At least 8 characters. Changing it signs you out everywhere else.</p>
  <button type="submit">Change password</button>
</form>

<h2 id="connections">Connected accounts</h2>
${errorFor('connections')}
${
  available.length === 0
    ? html`<p class="hint">No outside accounts can be connected on this server.</p>`
    : html`<ul>${available.map((p) =>
        connected.has(p)
          ? html`<li>${PROVIDER_LABELS[p]}: connected.
              <form method="post" action="/account/connections/${p}/revoke" class="inline">${csrfField(request)}<button type="submit" class="link">Disconnect</button></form></li>`
          : html`<li>${PROVIDER_LABELS[p]}: <a href="/rest/v1/user/connect/${p}">Connect</a></li>`,
      )}</ul>`
}
<p><a href="/apps">Applications</a>: register your own apps, and see the apps you have authorized.</p>

<h2 id="sessions">Signed-in browsers</h2>
<form method="post" action="/account/signout-everywhere">
  ${csrfField(request)}
  <p class="hint" id="everywhere-hint">Signs out every browser and phone where you signed in to this site, this one included. The extension and apps you authorized keep working: remove those under Applications.</p>
  <button type="submit" aria-describedby="everywhere-hint">Sign out everywhere</button>
</form>`,
  );
}

/** The account page: name, email, password, connected accounts. */
export function accountPages(app: FastifyInstance): void {
  const guard = (request: FastifyRequest, reply: FastifyReply) => requireSignedIn(request, reply, '/account');
  const failed = async (request: FastifyRequest, reply: FastifyReply, form: string, message: string) =>
    sendPage(reply, 400, await accountPage(app, request, { form, message }));
  /** Too many wrong passwords: 429 with Retry-After, the page saying how long to wait. */
  const throttled = async (request: FastifyRequest, reply: FastifyReply, form: string, err: ApiError) => {
    reply.header('retry-after', String(err.extra.retryAfter));
    return sendPage(reply, 429, await accountPage(app, request, { form, message: err.message }));
  };

  app.get('/account', async (request, reply) => {
    if (!guard(request, reply)) return reply;
    return sendPage(reply, 200, await accountPage(app, request));
  });

  app.post('/account/profile', async (request, reply) => {
    if (!guard(request, reply)) return reply;
    if (!csrfOk(request)) return csrfFailure(request, reply);
    const fullName = field(request, 'fullName', 300).trim();
    if (!fullName || fullName.length > 200) return failed(request, reply, 'profile', 'Enter a name of 1 to 200 characters.');
    await app.repos.users.update(webState(request).user!.id, { fullName });
    return reply.redirect('/account?done=profile', 303);
  });

  app.post('/account/email', async (request, reply) => {
    if (!guard(request, reply)) return reply;
    if (!csrfOk(request)) return csrfFailure(request, reply);
    const email = field(request, 'email', 400).trim();
    if (!isEmailAddress(email)) return failed(request, reply, 'email', 'Enter a valid email address, like ann@example.com.');
    try {
      await changeEmail(app, webState(request).user!.id, { email, oldpassword: field(request, 'password'), ip: request.ip });
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) return throttled(request, reply, 'email', err);
      if (err instanceof ApiError && err.status === 400) {
        const message = /oldpassword/.test(err.message) ? 'The current password is wrong: the email was not changed.' : 'Another account already uses this email.';
        return failed(request, reply, 'email', message);
      }
      throw err;
    }
    return reply.redirect('/account?done=email', 303);
  });

  app.post('/account/password', async (request, reply) => {
    if (!guard(request, reply)) return reply;
    if (!csrfOk(request)) return csrfFailure(request, reply);
    const state = webState(request);
    const newpassword = field(request, 'newpassword');
    if (newpassword.length < 8) return failed(request, reply, 'password', 'The new password must be at least 8 characters.');
    try {
      await changePassword(app, state.user!.id, { oldpassword: field(request, 'oldpassword'), newpassword, ip: request.ip }, { sessionId: String(state.session!.id) });
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) return throttled(request, reply, 'password', err);
      if (err instanceof ApiError && err.status === 400) return failed(request, reply, 'password', 'The current password is wrong: the password was not changed.');
      throw err;
    }
    return reply.redirect('/account?done=password', 303);
  });

  app.post('/account/signout-everywhere', async (request, reply) => {
    if (!guard(request, reply)) return reply;
    if (!csrfOk(request)) return csrfFailure(request, reply);
    await app.repos.oauth.sessions.revokeAllForUser(webState(request).user!.id);
    await signOut(app, request, reply);
    return reply.redirect('/signin', 303);
  });

  app.post<{ Params: { provider: string } }>('/account/connections/:provider/revoke', async (request, reply) => {
    if (!guard(request, reply)) return reply;
    if (!csrfOk(request)) return csrfFailure(request, reply);
    const { provider } = request.params;
    if (!isProvider(provider)) return errorPage(request, reply, 404, 'Unknown provider', `There is no provider called "${provider}".`);
    await app.repos.oauth.connections.disconnect(webState(request).user!.id, provider);
    return reply.redirect('/account?done=disconnected', 303);
  });
}
