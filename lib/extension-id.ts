// The bundled extension's manifest key, pinned so its id and OAuth redirect URL never change, and its
// default server. The id, client id and redirect URLs the server also needs are in
// lib/api/extension-identity.ts; tests/extension/manifest.test.ts checks that they derive from this key.

/**
 * Base64 SPKI DER of the RSA public key in the Chrome manifest's `key`. Chrome derives the extension
 * id from it, so every unpacked install gets the same id. The private key is not in the repository
 * (it is only needed to sign a CRX for a store).
 */
export const EXTENSION_PUBLIC_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAohhucpeTb3htHvDbYtZnv5NFFlh7WFZIxlC0GbBN0f5XctTnrIqvfREN/JZepCQZ3Vg9gD+FAS/KTostY3OWcVOYEjc5/psRcVcGXABb0TqpHKouFZAFyr16b1gC1b1F5kbyLYwSjJccIkP8iY/GuYRc+GctjUa0Q6vZ2Vrym6VaJ3tQKLrsoOXqp+lXIJWSpLyVKnFCFXUklQdD8jYs0kA3Li6LzD/uwNuDbFkL5Pjqx145EZlAHQVdPy/eq5DP5uyvBH+MJOqRx3wO95PROLBjP8SJMhPLCIJ6OXwNE78wYYxsVIgrEkOxyCIYzDYe7XYp8FmdIjEfRar2XyPbJwIDAQAB';

/** The server the extension talks to until the user picks another (the `npm start` default). */
export const DEFAULT_SERVER_URL = 'http://localhost:8787';
