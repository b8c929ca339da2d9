import type { FastifyReply, FastifyRequest } from 'fastify';
import { queryText } from './forms.js';
import { html, type SafeHtml } from './html.js';
import { CSRF_FIELD, csrfToken, signedInUserOf, webState } from './session.js';

/** The hidden CSRF field every form posts. */
export function csrfField(request: FastifyRequest): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${csrfToken(request)}">`;
}

/** A message box: 'error' is announced to screen readers at once. */
export function notice(kind: 'error' | 'ok', message: string | undefined): SafeHtml {
  if (!message) return html``;
  return kind === 'error'
    ? html`<p class="notice error" role="alert">${message}</p>`
    : html`<p class="notice ok" role="status">${message}</p>`;
}

/**
 * The header's Sign in and Sign up links keep the page's `next` (a deep link on its way through
 * sign-in), as the form's own links do; where it leads is checked when it is used.
 */
function nextCarried(request: FastifyRequest): string {
  const next = queryText(request, 'next');
  return next ? `?next=${encodeURIComponent(next)}` : '';
}

/** The page shell: header with the signed-in user's links, main content; `head` adds to <head>. */
export function layout(request: FastifyRequest, title: string, body: SafeHtml, head: SafeHtml = html``): SafeHtml {
  const user = signedInUserOf(request);
  const nav = user
    ? html`<nav aria-label="Account">
        <a href="/account">Account</a>
        <a href="/apps">Apps</a>
        <form method="post" action="/signout" class="inline">${csrfField(request)}<button type="submit" class="link">Sign out</button></form>
      </nav>`
    : html`<nav aria-label="Account"><a href="/signin${nextCarried(request)}">Sign in</a> <a href="/signup${nextCarried(request)}">Sign up</a></nav>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Tidemark</title>
<link rel="stylesheet" href="/web.css">
${head}</head>
<body>
<header><span class="brand">Tidemark</span>${nav}</header>
<main>
${body}
</main>
</body>
</html>
`;
}

/**
 * Sends a page with strict security headers: a Content-Security-Policy that allows only this
 * site's stylesheet and forms (plus `formAction` origins, for the consent form's redirect to the
 * app), no framing, no referrer, no caching.
 */
export function sendPage(reply: FastifyReply, status: number, content: SafeHtml, opts: { formAction?: string[] } = {}): FastifyReply {
  const formAction = ["'self'", ...(opts.formAction ?? [])].join(' ');
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'self'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .send(content.value);
}

/** A page that only says what went wrong and what to do. */
export function errorPage(request: FastifyRequest, reply: FastifyReply, status: number, title: string, message: string): FastifyReply {
  return sendPage(
    reply,
    status,
    layout(request, title, html`<h1>${title}</h1>${notice('error', message)}<p><a href="/account">Go to your account</a></p>`),
  );
}

/** The answer to a form post without this browser's CSRF token. */
export function csrfFailure(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return errorPage(
    request,
    reply,
    403,
    'Form expired',
    'This form could not be accepted: it was sent from another site, or it is too old, or cookies are blocked. Go back, reload the page and send it again.',
  );
}

/** Pages that need a signed-in user send others to sign in, and back here afterwards. */
export function signInRedirect(request: FastifyRequest, reply: FastifyReply, status: 303 | 307 = 303): FastifyReply {
  return reply.redirect(`/signin?next=${encodeURIComponent(request.url)}`, status);
}

/**
 * Whether the browser is signed in. When it is not, answers with the way to sign in (back to the
 * page after a GET; to `home` after a form post, which cannot be repeated by a redirect) and says false.
 */
export function requireSignedIn(request: FastifyRequest, reply: FastifyReply, home: string): boolean {
  if (webState(request).user) return true;
  if (request.method === 'GET') signInRedirect(request, reply);
  else reply.redirect(`/signin?next=${encodeURIComponent(home)}`, 303);
  return false;
}
