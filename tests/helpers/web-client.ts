// A minimal browser for server tests: keeps cookies, does not follow redirects (tests look at
// each one), posts forms with the CSRF token read from the last page, as a person's browser would.
import { readApiResponse, type TestServer } from './server.js';
import { s256 } from '../../server/services/oauth/pkce.js';

export interface WebResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The redirect target, resolved against the server, when there is one. */
  location: string | null;
}

export class WebClient {
  readonly cookies = new Map<string, string>();
  /** The HTML of the last page fetched, where forms are read from. */
  lastPage = '';

  /** `headers` go with every request (an X-Forwarded-For to come from another address). */
  constructor(
    readonly origin: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private async send(method: string, path: string, body?: URLSearchParams | string, headers: Record<string, string> = {}): Promise<WebResponse> {
    const url = path.startsWith('http') ? path : this.origin + path;
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { ...this.headers, ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}), ...headers },
      body,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    if ((res.headers.get('content-type') ?? '').includes('text/html')) this.lastPage = text;
    const loc = res.headers.get('location');
    return { status: res.status, headers: res.headers, text, location: loc ? new URL(loc, url).toString() : null };
  }

  get(path: string): Promise<WebResponse> {
    return this.send('GET', path);
  }

  /** Posts a form; the CSRF token of the last page is added unless `_csrf` is given (or null to omit it). */
  post(path: string, fields: Record<string, string | null>): Promise<WebResponse> {
    const form = new URLSearchParams();
    const all: Record<string, string | null> = { _csrf: this.csrf(), ...fields };
    for (const [k, v] of Object.entries(all)) if (v !== null) form.set(k, v);
    return this.send('POST', path, form, { 'content-type': 'application/x-www-form-urlencoded' });
  }

  /** The CSRF token in the last page's forms ('' when none). */
  csrf(): string {
    return /name="_csrf" value="([^"]+)"/.exec(this.lastPage)?.[1] ?? '';
  }

  /** The value of a hidden input of the last page. */
  hidden(name: string): string | undefined {
    const m = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(this.lastPage);
    return m ? m[1].replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>') : undefined;
  }

  async signUp(email: string, password: string, name = 'Web User'): Promise<WebResponse> {
    await this.get('/signup');
    return this.post('/signup', { name, email, password, next: '/account' });
  }

  async signIn(email: string, password: string, next = '/account'): Promise<WebResponse> {
    await this.get(`/signin?next=${encodeURIComponent(next)}`);
    return this.post('/signin', { email, password, next });
  }
}

/** Registers an application straight in the store (the console has its own tests). */
export async function registerApp(
  s: TestServer,
  ownerId: number,
  opts: { name?: string; kind?: 'confidential' | 'public'; redirectUris?: string[] } = {},
) {
  const { client, secret } = await s.app.repos.oauth.clients.create({
    ownerId,
    name: opts.name ?? 'Test App',
    kind: opts.kind ?? 'confidential',
    redirectUris: opts.redirectUris ?? ['https://app.example/callback'],
  });
  return { client, clientId: client.client_id, secret: secret ?? undefined, redirectUri: client.redirect_uris[0] };
}

export function authorizeUrl(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  return `/oauth/authorize?${q}`;
}

/** A PKCE verifier and its S256 challenge. */
export function pkcePair(seed = 'x'): { verifier: string; challenge: string } {
  const verifier = `verifier-${seed}-`.padEnd(64, 'abcdefghij');
  return { verifier, challenge: s256(verifier) };
}

/**
 * Drives a signed-in browser through /oauth/authorize and the consent form. Returns the final
 * redirect (to the app) as a URL.
 */
export async function authorizeAs(
  browser: WebClient,
  params: Record<string, string | undefined>,
  decision: 'allow' | 'deny' = 'allow',
): Promise<URL> {
  const page = await browser.get(authorizeUrl(params));
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${page.location ?? page.text.slice(0, 300)}`);
  const fields: Record<string, string> = { decision };
  for (const name of ['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method']) {
    const value = browser.hidden(name);
    if (value !== undefined) fields[name] = value;
  }
  const answer = await browser.post('/oauth/authorize', fields);
  return new URL(await followConsentAnswer(browser, answer));
}

/**
 * The consent post answers 303 to a one-time hand-off page of the server, which answers 307 to the
 * app. Checks both hops and returns the app URL.
 */
export async function followConsentAnswer(browser: WebClient, answer: WebResponse): Promise<string> {
  if (answer.status !== 303 || !answer.location) {
    throw new Error(`consent answered ${answer.status} without a redirect: ${answer.text.slice(0, 300)}`);
  }
  const handoff = await browser.get(answer.location);
  if (handoff.status !== 307 || !handoff.location) {
    throw new Error(`hand-off answered ${handoff.status}: ${handoff.text.slice(0, 300)}`);
  }
  return handoff.location;
}

/**
 * Exchanges an authorization code for tokens with the app's credentials (JSON body unless `opts.form`);
 * `overrides` change, add or (as undefined) leave out fields.
 */
export function exchangeCode(
  s: TestServer,
  app: { clientId: string; secret?: string; redirectUri: string },
  code: string | null | undefined,
  overrides: Record<string, unknown> = {},
  opts: { form?: boolean } = {},
) {
  const body = { grant_type: 'authorization_code', code, client_id: app.clientId, client_secret: app.secret, redirect_uri: app.redirectUri, ...overrides };
  return tokenRequest(s, body, opts);
}

/** POST /oauth/access_token with a JSON body (or a form body). */
export async function tokenRequest(s: TestServer, body: Record<string, unknown>, opts: { form?: boolean; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let payload: string;
  if (opts.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(body as Record<string, string>).toString();
  } else {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  return readApiResponse(await fetch(`${s.origin}/oauth/access_token`, { method: 'POST', headers, body: payload }));
}
