import type { FastifyInstance } from 'fastify';
import { queryText } from '../forms.js';
import { html } from '../html.js';
import { layout, sendPage } from '../layout.js';
import { webState } from '../session.js';
import { secureHeaders } from './security.js';

/** Longest address the share target passes on (it must fit, encoded, into a sign-in `next`). */
const SHARE_URL_MAX = 4096;
const TITLE_MAX = 500;

/** An http(s) address as given, or null when it is not one. */
function webAddress(text: string): string | null {
  const candidate = text.trim();
  if (!candidate || candidate.length > SHARE_URL_MAX || !/^https?:\/\//i.test(candidate)) return null;
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The first http(s) address inside free text, without the punctuation a sentence puts after it. */
function firstAddressIn(text: string): { url: string; rest: string } | null {
  for (const match of text.matchAll(/https?:\/\/[^\s<>"'`]+/gi)) {
    const raw = match[0].replace(/[.,;:!?)\]}>»”’]+$/u, '');
    const url = webAddress(raw);
    if (url) return { url, rest: (text.slice(0, match.index) + ' ' + text.slice(match.index + raw.length)).replace(/\s+/g, ' ').trim() };
  }
  return null;
}

/**
 * What a share carries: the address from `url`, else the first one in `text` (Android's share sheet
 * often sends the link there), else in `title`; the title given, else the text around the address.
 */
function pickShared(params: { url: string; title: string; text: string }): { url: string; title: string } | null {
  const direct = webAddress(params.url);
  const found = direct ? { url: direct, rest: '' } : (firstAddressIn(params.text) ?? firstAddressIn(params.title));
  if (!found) return null;
  const title = (params.title.trim() && !webAddress(params.title) ? params.title : found.rest).replace(/\s+/g, ' ').trim().slice(0, TITLE_MAX);
  return { url: found.url, title };
}

/** The web app's save form for a shared page. */
function saveFormPath(shared: { url: string; title: string }): string {
  const query = new URLSearchParams({ save: shared.url });
  if (shared.title) query.set('title', shared.title);
  return `/?${query}`;
}

/**
 * GET /share: the target of the manifest's share_target (method GET) and of the bookmarklet. Sends a
 * signed-in browser to the app's save form filled with the shared page, others to sign in first
 * and then there.
 */
export function shareRoutes(app: FastifyInstance): void {
  app.get('/share', async (request, reply) => {
    secureHeaders(reply);
    const shared = pickShared({ url: queryText(request, 'url'), title: queryText(request, 'title'), text: queryText(request, 'text') });
    if (!shared) {
      return sendPage(
        reply,
        400,
        layout(
          request,
          'Nothing to save',
          html`<h1>Nothing to save</h1>
<p class="notice error" role="alert">What was shared holds no web address (one starting with http:// or https://, at most ${SHARE_URL_MAX} characters), so there is nothing to save.</p>
<p>Share the page itself (its link) to Tidemark, or open <a href="/?save=">the library</a> and paste the address there.</p>`,
        ),
      );
    }
    const target = saveFormPath(shared);
    if (webState(request).user) return reply.redirect(target, 303);
    return reply.redirect(`/signin?next=${encodeURIComponent(target)}`, 303);
  });
}
