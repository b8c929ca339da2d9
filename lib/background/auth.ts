// Owns the tokens. The access token lives in storage.session, the refresh token (or a pasted test
// token) in the extension's IndexedDB; neither ever leaves the background. Refreshes ahead of
// expiry and once after a 401; a refused refresh signs the user out everywhere with a reason.
import { ApiClientError, checkTidemarkServer, TidemarkApi, type TokenSource } from '../api/client/index.js';
import { authorizeUrl, createPkce, exchangeCode, randomToken, readRedirect, refreshTokens, type TokenSet } from '../api/client/oauth.js';
import type { User } from '../api/types.js';
import { launchAuthFlow, oauthRedirectUrl } from '../browser-differences.js';
import { OAUTH_CLIENT_ID } from '../api/extension-identity.js';
import type { Account } from '../model.js';
import { UserFacingError } from '../messaging/router.js';
import { accountItem, credentialRecord, serverUrlItem, sessionTokenItem, signedOutReasonItem } from '../storage/items.js';

/** Refresh this long before the access token expires. */
export const REFRESH_MARGIN_MS = 5 * 60 * 1000;

interface AuthDeps {
  now?: () => number;
  fetch?: typeof fetch;
  /** Opens the authorization page and resolves with the URL it redirected to (identity.launchWebAuthFlow). */
  launchWebAuthFlow?: (url: string) => Promise<string>;
  redirectUrl?: () => string;
  /** Told after every sign-in and sign-out. `userInitiated` is false when an expired sign-in ended it. */
  onChange?: (account: Account | null, reason: string | null, userInitiated: boolean) => void;
}

function accountOf(user: User, serverUrl: string, method: Account['method']): Account {
  return { userId: user._id, name: user.fullName || user.email, email: user.email, serverUrl, method };
}

function normaliseServerUrl(input: string): string {
  const url = new URL(input.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UserFacingError('The server URL must start with http:// or https://.');
  return url.origin;
}

export class Auth {
  readonly api: TidemarkApi;
  #refreshing: Promise<string | null> | null = null;
  readonly #now: () => number;
  readonly #fetchImpl: typeof fetch;

  readonly #deps: AuthDeps;

  constructor(deps: AuthDeps = {}) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
    this.#fetchImpl = deps.fetch ?? ((i: RequestInfo | URL, init?: RequestInit) => fetch(i, init));
    const tokens: TokenSource = {
      getAccessToken: () => this.getAccessToken(),
      refreshAfterUnauthorized: (rejected) => this.#refreshAfterUnauthorized(rejected),
    };
    this.api = new TidemarkApi({ serverUrl: () => this.serverUrl(), tokens, fetch: this.#fetchImpl });
  }

  account(): Promise<Account | null> {
    return accountItem.getValue();
  }

  async serverUrl(): Promise<string> {
    return (await accountItem.getValue())?.serverUrl ?? (await serverUrlItem.getValue());
  }

  /** A usable access token, refreshed first when it is about to expire; null when signed out. */
  async getAccessToken(): Promise<string | null> {
    const [account, session] = await Promise.all([accountItem.getValue(), sessionTokenItem.getValue()]);
    if (!account) return null;
    if (session && session.serverUrl === account.serverUrl) {
      if (session.expiresAt === null || session.expiresAt - this.#now() > REFRESH_MARGIN_MS) return session.token;
      try {
        return (await this.refresh()) ?? null;
      } catch (err) {
        // Offline: the old token still works until it really expires.
        if (session.expiresAt > this.#now()) return session.token;
        throw err;
      }
    }
    // No token in this browser session yet (the browser was restarted): make one from the credential.
    const credential = await credentialRecord.get();
    if (!credential) return null;
    if (credential.kind === 'test-token') {
      await sessionTokenItem.setValue({ serverUrl: credential.serverUrl, token: credential.token, expiresAt: null });
      return credential.token;
    }
    return this.refresh();
  }

  async #refreshAfterUnauthorized(rejected: string): Promise<string | null> {
    const session = await sessionTokenItem.getValue();
    if (session && session.token !== rejected) return session.token; // someone refreshed meanwhile
    const credential = await credentialRecord.get();
    if (credential?.kind !== 'oauth') {
      await this.#expire('The server no longer accepts your test token. Open Tidemark\'s options and sign in again.');
      return null;
    }
    return this.refresh();
  }

  /** One refresh at a time (the refresh token rotates: two at once would revoke the grant). */
  refresh(): Promise<string | null> {
    this.#refreshing ??= this.#doRefresh().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async #doRefresh(): Promise<string | null> {
    const credential = await credentialRecord.get();
    if (credential?.kind !== 'oauth') return null;
    let tokens: TokenSet;
    try {
      tokens = await refreshTokens(
        { serverUrl: credential.serverUrl, clientId: OAUTH_CLIENT_ID, refreshToken: credential.refreshToken },
        this.#fetchImpl,
        this.#now(),
      );
    } catch (err) {
      if (err instanceof ApiClientError && err.kind === 'unauthorized') {
        await this.#expire('Your sign-in has expired. Open Tidemark\'s options and sign in again.');
        return null;
      }
      throw err;
    }
    await this.#store(credential.serverUrl, tokens);
    return tokens.accessToken;
  }

  async #store(serverUrl: string, tokens: TokenSet): Promise<void> {
    await credentialRecord.set({ kind: 'oauth', serverUrl, refreshToken: tokens.refreshToken });
    await sessionTokenItem.setValue({ serverUrl, token: tokens.accessToken, expiresAt: tokens.expiresAt });
  }

  /** The OAuth authorization-code flow with PKCE, in the browser's sign-in window. */
  async signInWithOAuth(serverInput: string): Promise<Account> {
    const serverUrl = normaliseServerUrl(serverInput);
    const redirectUri = this.#deps.redirectUrl ? this.#deps.redirectUrl() : oauthRedirectUrl();
    const launch = this.#deps.launchWebAuthFlow ?? launchAuthFlow;
    // A wrong address is said plainly here, not as a sign-in window showing some other site.
    await checkTidemarkServer(serverUrl, this.#fetchImpl).catch((err: Error) => {
      throw new UserFacingError(err.message, 'server');
    });
    const pkce = await createPkce();
    const state = randomToken(16);
    let redirectedTo: string | undefined;
    try {
      redirectedTo = await launch(authorizeUrl({ serverUrl, clientId: OAUTH_CLIENT_ID, redirectUri, state, challenge: pkce.challenge }));
    } catch (err) {
      throw new UserFacingError(
        `Sign-in did not finish: ${(err as Error)?.message || 'the window was closed'}. Check the server URL and try again.`,
        'cancelled',
      );
    }
    if (!redirectedTo) throw new UserFacingError('Sign-in did not finish: the window was closed. Try again.', 'cancelled');
    const answer = readRedirect(redirectedTo, state);
    if ('error' in answer) throw new UserFacingError(answer.description, answer.error);
    const tokens = await exchangeCode(
      { serverUrl, clientId: OAUTH_CLIENT_ID, redirectUri, code: answer.code, verifier: pkce.verifier },
      this.#fetchImpl,
      this.#now(),
    ).catch((err) => {
      throw new UserFacingError(`The server did not accept the sign-in: ${(err as Error).message}`, 'exchange');
    });
    const user = await this.#checkedUser(serverUrl, tokens.accessToken);
    await this.#store(serverUrl, tokens);
    return this.#finishSignIn(user, serverUrl, 'oauth');
  }

  /** "Advanced: paste a test token": checked against GET /user before it is kept. */
  async signInWithTestToken(serverInput: string, token: string): Promise<Account> {
    const serverUrl = normaliseServerUrl(serverInput);
    const trimmed = token.trim();
    const user = await this.#checkedUser(serverUrl, trimmed);
    await credentialRecord.set({ kind: 'test-token', serverUrl, token: trimmed });
    await sessionTokenItem.setValue({ serverUrl, token: trimmed, expiresAt: null });
    return this.#finishSignIn(user, serverUrl, 'test-token');
  }

  /** GET /user on `serverUrl` with `token` (not the signed-in account's server or token). */
  async #checkedUser(serverUrl: string, token: string): Promise<User> {
    try {
      return await new TidemarkApi({
        serverUrl: () => serverUrl,
        tokens: { getAccessToken: async () => token, refreshAfterUnauthorized: async () => null },
        fetch: this.#fetchImpl,
        retry: { retries: 1 },
      }).getUser(token);
    } catch (err) {
      if (err instanceof ApiClientError && err.kind === 'unauthorized') {
        throw new UserFacingError('The server did not accept this token. Copy the test token again and paste it exactly.', 'unauthorized');
      }
      throw new UserFacingError((err as Error).message, (err as ApiClientError).kind ?? 'error');
    }
  }

  async #finishSignIn(user: User, serverUrl: string, method: Account['method']): Promise<Account> {
    const account = accountOf(user, serverUrl, method);
    await serverUrlItem.setValue(serverUrl);
    await accountItem.setValue(account);
    await signedOutReasonItem.setValue(null);
    this.#deps.onChange?.(account, null, true);
    return account;
  }

  /** Sign out: forgets every token. */
  async signOut(): Promise<void> {
    await this.#forget();
    await signedOutReasonItem.setValue(null);
    this.#deps.onChange?.(null, null, true);
  }

  /** Signed out because the server refused the tokens: shown as "signed out" everywhere. */
  async #expire(reason: string): Promise<void> {
    await this.#forget();
    await signedOutReasonItem.setValue(reason);
    this.#deps.onChange?.(null, reason, false);
  }

  async #forget(): Promise<void> {
    await credentialRecord.remove();
    await sessionTokenItem.removeValue();
    await accountItem.setValue(null);
  }
}

