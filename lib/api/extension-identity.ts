// The bundled extension's public identity, as the server must know it to register the extension's
// OAuth client (public, PKCE S256, no secret): its client id and the redirect URLs of both browsers.
// Plain constants in lib/api so the server never imports extension code. The Chrome manifest key they
// derive from is in lib/extension-id.ts; tests/extension/manifest.test.ts checks the derivation.

/** Chrome's id for the manifest key: SHA-256 of the key's DER, first 32 hex digits written with a-p. */
export const EXTENSION_ID = 'mgmegdeacggnbobffdjnbahpjimoeeih';

/** Firefox add-on id (`browser_specific_settings.gecko.id`). */
export const FIREFOX_ADDON_ID = 'tidemark@extension.tidemark';

/** The public OAuth client the server registers for the bundled extension (PKCE S256, no secret). */
export const OAUTH_CLIENT_ID = 'tidemark-extension';

/** Where Chrome's `identity.launchWebAuthFlow` ends: `identity.getRedirectURL('oauth')`. */
export const CHROME_REDIRECT_URL = `https://${EXTENSION_ID}.chromiumapp.org/oauth`;

/** Firefox's `identity.getRedirectURL('oauth')`: SHA-1 hex of the add-on id under extensions.allizom.org. */
export const FIREFOX_REDIRECT_URL = 'https://9950ba989f0657c93d61d00e9d6568b8dce3692e.extensions.allizom.org/oauth';
