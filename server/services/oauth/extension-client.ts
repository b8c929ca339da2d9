import type { OAuthRepositories } from '../../repositories/index.js';
import { OAUTH_CLIENT_ID } from '../../../lib/api/extension-identity.js';
import { redirectUriProblem } from './redirect-uri.js';

/** The bundled extension's OAuth client id: fixed, so the extension can be built with it. */
export const EXTENSION_CLIENT_ID = OAUTH_CLIENT_ID;

/**
 * Registers (or finds) the public OAuth client of the bundled extension, owned by the service
 * itself (no user). Idempotent: a second call adds any redirect URI the client does not have yet
 * (e.g. Firefox's `https://<uuid>.extensions.allizom.org/` beside Chrome's
 * `https://<extension-id>.chromiumapp.org/oauth`) and keeps the ones it has.
 */
export async function ensureExtensionClient(
  repos: { oauth: OAuthRepositories },
  opts: { name: string; redirectUri: string; redirectUris?: string[] },
): Promise<{ client_id: string; redirect_uris: string[] }> {
  const uris = [opts.redirectUri, ...(opts.redirectUris ?? [])];
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new Error(`Cannot register the extension's redirect URL: ${problem}`);
  }
  const { clients } = repos.oauth;
  let client = await clients.byClientId(EXTENSION_CLIENT_ID);
  if (!client) {
    try {
      client = (await clients.create({ ownerId: null, name: opts.name, kind: 'public', redirectUris: uris, clientId: EXTENSION_CLIENT_ID })).client;
    } catch {
      // Another process registered it at the same moment: use theirs.
      client = (await clients.byClientId(EXTENSION_CLIENT_ID))!;
    }
  }
  const missing = uris.filter((u) => !client!.redirect_uris.includes(u));
  if (missing.length || client.name !== opts.name) {
    if (missing.length) client = await clients.addRedirectUris(client.id, missing);
    if (client.name !== opts.name) client = await clients.update(client.id, { name: opts.name });
  }
  return { client_id: client.client_id, redirect_uris: client.redirect_uris };
}
