// The extension signed in to the real test server: a new user with the account record the extension
// keeps for it, and the real API client over a network a test can cut.
import { TidemarkApi } from '../../../lib/api/client/index.js';
import type { Account } from '../../../lib/model.js';
import type { TestServer } from '../../helpers/server.js';

type TestUser = Awaited<ReturnType<TestServer['createUser']>>;

/** A new user on `s` and its account as the extension stores it after a test-token sign-in. */
export async function signedInUser(s: TestServer, name: string): Promise<{ user: TestUser; account: Account }> {
  const user = await s.createUser();
  return { user, account: { userId: user.id, name, email: user.email, serverUrl: s.origin, method: 'test-token' } };
}

/** 'down': nothing reaches the server; 'lose-answers': the server acts, the answer is lost. */
export type Network = 'up' | 'down' | 'lose-answers';

export interface NetworkSwitch {
  /** Read at the start of each request and again when its answer arrives. */
  network: () => Network;
  /** Asked once per request while the network is not down; false drops that request (a network going away half-way). */
  gate?: () => boolean;
}

/** The real API client for `s`, without retries, its requests passing through `net`. */
export function apiOver(s: TestServer, token: () => string, net: NetworkSwitch): TidemarkApi {
  return new TidemarkApi({
    serverUrl: () => s.origin,
    tokens: { getAccessToken: async () => token(), refreshAfterUnauthorized: async () => null },
    retry: { retries: 0 },
    fetch: async (input, init) => {
      if (net.network() === 'down' || net.gate?.() === false) throw new TypeError('fetch failed');
      const res = await fetch(input, init);
      if (net.network() === 'lose-answers') {
        await res.text();
        throw new TypeError('network connection was lost');
      }
      return res;
    },
  });
}
