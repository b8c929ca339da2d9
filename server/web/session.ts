import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionRow } from '../repositories/index.js';
import type { UserRow } from '../repositories/index.js';
import { newSecret, safeEqual } from '../domain/secrets.js';
import { parseCookies, serializeCookie } from './cookies.js';
import { field } from './forms.js';

export const SESSION_COOKIE = 'tidemark_session';
/** A random id for a browser that has not signed in, so forms before sign-in carry a CSRF token too. */
const VISITOR_COOKIE = 'tidemark_visitor';
export const CSRF_FIELD = '_csrf';

/** What the web pages know about the browser making a request. */
interface WebState {
  session: SessionRow | null;
  user: UserRow | null;
  visitor: string;
  csrfKey: string;
}

const states = new WeakMap<FastifyRequest, WebState>();

export function webState(request: FastifyRequest): WebState {
  const state = states.get(request);
  if (!state) throw new Error('web state is only available on routes of the web plugin');
  return state;
}

/**
 * The signed-in user when the web plugin has read this request's session, else null: a page request
 * refused before that (over its rate limit) still gets an error page, signed out.
 */
export function signedInUserOf(request: FastifyRequest): UserRow | null {
  return states.get(request)?.user ?? null;
}

function secureCookies(app: FastifyInstance, request: FastifyRequest): boolean {
  return request.protocol === 'https' || !!app.config.publicUrl?.startsWith('https:');
}

/** The signed-in user of a browser request, from the session cookie (or null). Usable outside the web plugin. */
export async function sessionFromCookie(app: FastifyInstance, request: FastifyRequest): Promise<{ session: SessionRow; user: UserRow } | null> {
  const token = parseCookies(request.headers.cookie)[SESSION_COOKIE];
  if (!token) return null;
  const session = await app.repos.oauth.sessions.findValid(token);
  if (!session) return null;
  const user = await app.repos.users.byId(session.user_id);
  return user ? { session, user } : null;
}

/** Loads the session (if any) on every request of the web plugin, and gives new browsers a visitor id. */
export function installWebSessions(app: FastifyInstance): void {
  let csrfKey: Promise<string> | undefined;
  app.addHook('onRequest', async (request, reply) => {
    csrfKey ??= app.repos.oauth.sessions.serverKey('csrf');
    let visitor = parseCookies(request.headers.cookie)[VISITOR_COOKIE];
    if (!visitor || !/^[\w-]{20,100}$/.test(visitor)) {
      visitor = newSecret(18);
      reply.header('set-cookie', serializeCookie(VISITOR_COOKIE, visitor, { maxAge: 365 * 24 * 3600, secure: secureCookies(app, request) }));
    }
    const signedIn = await sessionFromCookie(app, request);
    states.set(request, { session: signedIn?.session ?? null, user: signedIn?.user ?? null, visitor, csrfKey: await csrfKey });
  });
}

/**
 * Signs the browser in with a brand-new session id (never one the browser brought: no session
 * fixation); a session it had before is ended.
 */
export async function signIn(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, user: UserRow): Promise<void> {
  const state = webState(request);
  const { sessions } = app.repos.oauth;
  if (state.session) await sessions.revoke(state.session.id);
  const ttl = app.config.web.sessionTtlMs;
  const { token, row } = await sessions.create({ userId: user.id, ttlMs: ttl, userAgent: request.headers['user-agent'] });
  reply.header('set-cookie', serializeCookie(SESSION_COOKIE, token, { maxAge: ttl / 1000, secure: secureCookies(app, request) }));
  state.session = row;
  state.user = user;
}

export async function signOut(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const state = webState(request);
  if (state.session) await app.repos.oauth.sessions.revoke(state.session.id);
  reply.header('set-cookie', serializeCookie(SESSION_COOKIE, '', { maxAge: 0, secure: secureCookies(app, request) }));
  state.session = null;
  state.user = null;
}

/**
 * The CSRF token forms carry: an HMAC (with a key kept on the server) of the session, or of the
 * visitor id before sign-in. A page on another site can neither read nor compute it.
 */
export function csrfToken(request: FastifyRequest): string {
  const state = webState(request);
  const binding = state.session ? `session:${state.session.id}:${state.session.token_hash}` : `visitor:${state.visitor}`;
  return createHmac('sha256', state.csrfKey).update(binding).digest('base64url');
}

/** Whether the posted form carries this browser's CSRF token (compared in constant time). */
export function csrfOk(request: FastifyRequest): boolean {
  const sent = field(request, CSRF_FIELD, 200);
  return sent !== '' && safeEqual(sent, csrfToken(request));
}
