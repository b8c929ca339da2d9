import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DuplicateEmailError } from '../../repositories/index.js';
import { hashPassword } from '../../services/passwords.js';
import { isEmailAddress, field, NEXT_MAX, queryText, safeNext } from '../forms.js';
import { homePath } from '../app/index.js';
import { html } from '../html.js';
import { csrfFailure, csrfField, layout, notice, sendPage } from '../layout.js';
import { csrfOk, signIn, signOut, webState } from '../session.js';

function nextQuery(next: string): string {
  return next === '/' ? '' : `?next=${encodeURIComponent(next)}`;
}

function signInForm(request: FastifyRequest, next: string, values: { email?: string; error?: string } = {}) {
  return layout(
    request,
    'Sign in',
    html`<h1>Sign in</h1>
${notice('error', values.error)}
<form method="post" action="/signin">
  ${csrfField(request)}
  <input type="hidden" name="next" value="${next}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${values.email ?? ''}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>
<p>No account yet? <a href="/signup${nextQuery(next)}">Sign up</a></p>`,
  );
}

function signUpForm(request: FastifyRequest, next: string, values: { email?: string; name?: string; error?: string } = {}) {
  return layout(
    request,
    'Sign up',
    html`<h1>Create your Tidemark account</h1>
${notice('error', values.error)}
<form method="post" action="/signup">
  ${csrfField(request)}
  <input type="hidden" name="next" value="${next}">
  <label for="name">Name</label>
  <input id="name" name="name" type="text" autocomplete="name" required maxlength="200" value="${values.name ?? ''}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="email" required maxlength="320" value="${values.email ?? ''}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" aria-describedby="password-hint">
  <p class="hint" id="password-hint">At least 8 characters.</p>
  <button type="submit">Sign up</button>
</form>
<p>Already have an account? <a href="/signin${nextQuery(next)}">Sign in</a></p>`,
  );
}

/** Sign up, sign in, sign out. */
export function authPages(app: FastifyInstance): void {
  const gate = app.services.passwordGate;

  const nextOf = (raw: string) => safeNext(raw, homePath(app));

  app.get('/signin', async (request, reply) => {
    const next = nextOf(queryText(request, 'next'));
    if (webState(request).user) return reply.redirect(next, 303);
    return sendPage(reply, 200, signInForm(request, next));
  });

  app.post('/signin', async (request, reply) => {
    if (!csrfOk(request)) return csrfFailure(request, reply);
    const next = nextOf(field(request, 'next', NEXT_MAX));
    const email = field(request, 'email', 320).trim();
    const password = field(request, 'password');
    if (!email || !password) {
      return sendPage(reply, 400, signInForm(request, next, { email, error: 'Enter your email and your password.' }));
    }
    const user = await app.repos.users.byEmail(email);
    const verdict = await gate.check(email, user?.password_hash, password, request.ip);
    if (verdict.kind === 'blocked') {
      const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
      const who = verdict.by === 'account' ? 'for this account' : 'from your network';
      reply.header('retry-after', String(verdict.retryAfterSeconds));
      return sendPage(
        reply,
        429,
        signInForm(request, next, {
          email,
          error: `Too many failed sign-in attempts ${who}. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
        }),
      );
    }
    if (!user || verdict.kind === 'wrong') {
      return sendPage(reply, 401, signInForm(request, next, { email, error: 'The email or the password is wrong. Check both and try again.' }));
    }
    await signIn(app, request, reply, user);
    return reply.redirect(next, 303);
  });

  app.get('/signup', async (request, reply) => {
    const next = nextOf(queryText(request, 'next'));
    if (webState(request).user) return reply.redirect(next, 303);
    return sendPage(reply, 200, signUpForm(request, next));
  });

  app.post('/signup', async (request, reply) => {
    if (!csrfOk(request)) return csrfFailure(request, reply);
    const next = nextOf(field(request, 'next', NEXT_MAX));
    const name = field(request, 'name', 300).trim();
    const email = field(request, 'email', 400).trim();
    const password = field(request, 'password');
    const fail = (error: string) => sendPage(reply, 400, signUpForm(request, next, { email, name, error }));
    const limit = await gate.signupAttempt(request.ip);
    if (limit.blocked) {
      const minutes = Math.ceil(limit.retryAfterSeconds / 60);
      reply.header('retry-after', String(limit.retryAfterSeconds));
      return sendPage(reply, 429, signUpForm(request, next, { email, name, error: `Too many sign-ups from your network. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.` }));
    }
    if (!name) return fail('Enter your name.');
    if (name.length > 200) return fail('The name is longer than 200 characters.');
    if (!isEmailAddress(email)) return fail('Enter a valid email address, like ann@example.com.');
    if (password.length < 8) return fail('The password must be at least 8 characters.');
    let user;
    try {
      user = await app.repos.users.create({ email, passwordHash: await hashPassword(password, app.config.passwordHashCost), fullName: name });
    } catch (err) {
      if (err instanceof DuplicateEmailError) return fail('An account with this email already exists. Sign in instead, or use another email.');
      throw err;
    }
    await signIn(app, request, reply, user);
    return reply.redirect(next, 303);
  });

  app.post('/signout', async (request, reply) => {
    if (!csrfOk(request)) return csrfFailure(request, reply);
    await signOut(app, request, reply);
    return reply.redirect('/signin', 303);
  });
}
