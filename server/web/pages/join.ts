import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_LEVEL, type ShareRole } from '../../../lib/api/constants.js';
import { ApiError } from '../../errors.js';
import type { InvitationRow } from '../../repositories/index.js';
import type { UserRow } from '../../repositories/index.js';
import { acceptInvitation, checkInvitation } from '../../services/sharing/join.js';
import { field, queryText } from '../forms.js';
import { html } from '../html.js';
import { csrfFailure, csrfField, errorPage, layout, notice, sendPage, signInRedirect } from '../layout.js';
import { csrfOk, webState } from '../session.js';

// The page behind an invitation's join link, /join?collection=<id>&token=<secret>: a signed-in
// person sees what they are invited to and joins with one button. The token stays out of every
// link and address these pages make; it travels only in the join form's hidden field.

const ASK_AGAIN = 'Ask the person who invited you to invite you again.';

const ROLE_TEXT: Record<ShareRole, { name: string; can: string }> = {
  member: { name: 'Member', can: 'can add and edit bookmarks in this collection and the collections inside it' },
  viewer: { name: 'Viewer', can: 'can read the bookmarks in this collection and the collections inside it, but not change them' },
};

/** A collection id as the link carries it: a positive whole number. */
function parseCollectionId(text: string): number | null {
  if (!/^[1-9]\d{0,15}$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : null;
}

/** A join link's secret: URL-safe base64 text, as the invitation mail writes it. */
function isTokenShaped(text: string): boolean {
  return /^[\w-]{16,500}$/.test(text);
}

function date(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function displayName(user: UserRow | undefined, fallback: string): string {
  return user?.full_name || user?.email || fallback;
}

function badLink(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return errorPage(
    request,
    reply,
    400,
    'This invitation link is incomplete',
    'The link needs the collection and the token exactly as in the invitation email. Open the link from the email again (or copy the whole address into the browser); if it still does not work, ask the person who invited you to invite you again.',
  );
}

/** Why an invitation cannot be used, as a page; the status is the one acceptInvitation answers. */
function cannotJoin(request: FastifyRequest, reply: FastifyReply, err: ApiError): FastifyReply {
  const title =
    err.status === 404
      ? 'This invitation link does not work'
      : err.status === 410
        ? 'This invitation can no longer be used'
        : err.status === 400
          ? 'You cannot join this collection'
          : 'The invitation could not be accepted';
  return errorPage(request, reply, err.status, title, err.message);
}

/** GET /join, POST /join and GET /join/done. */
export function joinPages(app: FastifyInstance): void {
  app.get('/join', async (request, reply) => {
    const collectionId = parseCollectionId(queryText(request, 'collection'));
    const token = queryText(request, 'token');
    if (collectionId === null || !isTokenShaped(token)) return badLink(request, reply);
    const user = webState(request).user;
    // Sign-in (and the sign-up page it links to) bring the visitor back to this same address.
    if (!user) return signInRedirect(request, reply);

    let invitation: InvitationRow;
    try {
      invitation = (await checkInvitation(app, user.id, collectionId, token)).invitation;
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) return cannotJoin(request, reply, err);
      throw err;
    }
    const [collection, inviter, access] = await Promise.all([
      app.repos.collections.byId(collectionId),
      app.repos.users.byId(invitation.invited_by),
      app.permissions.collection(user.id, collectionId),
    ]);
    if (!collection) return cannotJoin(request, reply, new ApiError(404, `This invitation's collection no longer exists. ${ASK_AGAIN}`));
    const owner = collection.user_id === invitation.invited_by ? inviter : await app.repos.users.byId(collection.user_id);
    const role = ROLE_TEXT[invitation.role];
    const current = access.role === 'member' || access.role === 'viewer' ? access.role : null;
    const otherAddress = invitation.email.toLowerCase() !== user.email.toLowerCase();

    return sendPage(
      reply,
      200,
      layout(
        request,
        'Join a shared collection',
        html`<h1>Join “${collection.title}”?</h1>
<dl>
  <dt>Collection</dt><dd>${collection.title}</dd>
  <dt>Invited by</dt><dd>${displayName(inviter, 'A Tidemark user')}</dd>
  ${owner && owner.id !== inviter?.id ? html`<dt>Owner</dt><dd>${displayName(owner, 'A Tidemark user')}</dd>` : ''}
  <dt>Your role</dt><dd><strong>${role.name}</strong>: ${role.can}.</dd>
  <dt>Joining as</dt><dd>${user.full_name ? html`${user.full_name} (${user.email})` : user.email}</dd>
</dl>
${
  otherAddress
    ? html`<p class="notice" role="note">This invitation was sent to ${invitation.email}, and you are signed in as ${user.email}: joining adds ${user.email}. To join with another account, sign out, then open the link from the email again.</p>`
    : ''
}
${
  current && access.level >= ACCESS_LEVEL[invitation.role]
    ? html`<p class="notice" role="note">You already are a ${ROLE_TEXT[current].name.toLowerCase()} of this collection: joining keeps your role and uses up this link.</p>`
    : current
      ? html`<p class="notice" role="note">You are a ${ROLE_TEXT[current].name.toLowerCase()} of this collection now: joining makes you a ${role.name.toLowerCase()}.</p>`
      : ''
}
<p class="hint">The link works once, until ${date(invitation.expires_at)}.</p>
<form method="post" action="/join">
  ${csrfField(request)}
  <input type="hidden" name="collection" value="${String(collectionId)}">
  <input type="hidden" name="token" value="${token}">
  <div class="actions">
    <button type="submit">Join</button>
    <a href="/account">Not now</a>
  </div>
</form>`,
      ),
    );
  });

  app.post('/join', async (request, reply) => {
    const collectionId = parseCollectionId(field(request, 'collection', 40));
    const token = field(request, 'token', 600);
    if (!webState(request).user) {
      // Signed out since the page was shown: sign in again and come back to the confirmation page.
      if (collectionId === null || !isTokenShaped(token)) return reply.redirect('/signin', 303);
      const again = `/join?collection=${collectionId}&token=${encodeURIComponent(token)}`;
      return reply.redirect(`/signin?next=${encodeURIComponent(again)}`, 303);
    }
    if (!csrfOk(request)) return csrfFailure(request, reply);
    if (collectionId === null || !isTokenShaped(token)) return badLink(request, reply);
    try {
      await acceptInvitation(app, webState(request).user!.id, collectionId, token);
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) return cannotJoin(request, reply, err);
      throw err;
    }
    return reply.redirect(`/join/done?collection=${collectionId}`, 303);
  });

  app.get('/join/done', async (request, reply) => {
    const collectionId = parseCollectionId(queryText(request, 'collection'));
    if (collectionId === null) return errorPage(request, reply, 400, 'No collection given', 'Open your collections in the Tidemark extension.');
    const user = webState(request).user;
    if (!user) return signInRedirect(request, reply);
    const notCollaborator = () =>
      errorPage(
        request,
        reply,
        404,
        'You are not in this collection',
        'This account is not a collaborator of this collection. If you were invited, open the link from the invitation email and press Join.',
      );
    let role: ShareRole;
    try {
      const access = await app.permissions.collection(user.id, collectionId);
      if (access.role !== 'member' && access.role !== 'viewer') return notCollaborator();
      role = access.role;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return notCollaborator();
      throw err;
    }
    const collection = await app.repos.collections.byId(collectionId);
    if (!collection) return notCollaborator();
    const text = ROLE_TEXT[role];
    return sendPage(
      reply,
      200,
      layout(
        request,
        'Joined',
        html`<h1>You joined “${collection.title}”</h1>
${notice('ok', `You are a ${text.name.toLowerCase()}: you ${text.can}.`)}
<h2>What next</h2>
<ul>
  <li>Open the Tidemark extension, signed in as ${user.email}: “${collection.title}” is in your collections list.${
    role === 'member' ? ' Save pages into it as into your own collections.' : ''
  }</li>
  <li>Apps that use the Tidemark API see it too: <code>GET /rest/v1/collection/${String(collectionId)}</code>, and its bookmarks at <code>GET /rest/v1/bookmarks/${String(collectionId)}</code>.</li>
</ul>
<p><a href="/account">Go to your account</a></p>`,
      ),
    );
  });
}
