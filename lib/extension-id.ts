// The bundled extension's identity, pinned so its OAuth redirect URL never changes. Plain constants:
// the server (to register the public OAuth client), `npm start`, the build and the tests read them.
// tests/extension/manifest.test.ts checks that the id and URLs derive from the key.

/**
 * Base64 SPKI DER of the RSA public key in the Chrome manifest's `key`. Chrome derives the extension
 * id from it, so every unpacked install gets the same id. The private key is not in the repository
 * (it is only needed to sign a CRX for a store).
 */
export const EXTENSION_PUBLIC_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAohhucpeTb3htHvDbYtZnv5NFFlh7WFZIxlC0GbBN0f5XctTnrIqvfREN/JZepCQZ3Vg9gD+FAS/KTostY3OWcVOYEjc5/psRcVcGXABb0TqpHKouFZAFyr16b1gC1b1F5kbyLYwSjJccIkP8iY/GuYRc+GctjUa0Q6vZ2Vrym6VaJ3tQKLrsoOXqp+lXIJWSpLyVKnFCFXUklQdD8jYs0kA3Li6LzD/uwNuDbFkL5Pjqx145EZlAHQVdPy/eq5DP5uyvBH+MJOqRx3wO95PROLBjP8SJMhPLCIJ6OXwNE78wYYxsVIgrEkOxyCIYzDYe7XYp8FmdIjEfRar2XyPbJwIDAQAB';

/** Chrome's id for the key above: SHA-256 of the DER, first 32 hex digits written with a-p. */
export const EXTENSION_ID = 'mgmegdeacggnbobffdjnbahpjimoeeih';

/** Firefox add-on id (`browser_specific_settings.gecko.id`). */
export const FIREFOX_ADDON_ID = 'tidemark@extension.tidemark';

/** The public OAuth client the server registers for the bundled extension (PKCE S256, no secret). */
export const OAUTH_CLIENT_ID = 'tidemark-extension';

/** Where Chrome's `identity.launchWebAuthFlow` ends: `identity.getRedirectURL('oauth')`. */
export const CHROME_REDIRECT_URL = `https://${EXTENSION_ID}.chromiumapp.org/oauth`;

/** Firefox's `identity.getRedirectURL('oauth')`: SHA-1 hex of the add-on id under extensions.allizom.org. */
export const FIREFOX_REDIRECT_URL = 'https://9950ba989f0657c93d61d00e9d6568b8dce3692e.extensions.allizom.org/oauth';

/** The server the extension talks to until the user picks another (the `npm start` default). */
export const DEFAULT_SERVER_URL = 'http://localhost:8787';
