// Outside account providers a user can connect (`GET /user/connect/{provider}`). The operator
// configures each one with a client id and secret; unconfigured providers answer a clear 400.

export const PROVIDERS = ['facebook', 'google', 'twitter', 'vkontakte', 'dropbox', 'gdrive'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

interface ProviderConfig {
  clientId: string;
  clientSecret: string;
  /** Overrides the provider's authorization page (e.g. a test double on loopback). */
  authorizeUrl?: string;
  /** Overrides the provider's token endpoint. */
  tokenUrl?: string;
}

export type ProvidersConfig = Partial<Record<ProviderName, ProviderConfig>>;

interface ProviderEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  scope: string;
}

/** The providers' published OAuth 2.0 endpoints and the scope each connection asks for. */
const PROVIDER_ENDPOINTS: Record<ProviderName, ProviderEndpoints> = {
  facebook: {
    authorizeUrl: 'https://www.facebook.com/v19.0/dialog/oauth',
    tokenUrl: 'https://graph.facebook.com/v19.0/oauth/access_token',
    scope: 'email',
  },
  google: {
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    scope: 'openid email',
  },
  twitter: {
    authorizeUrl: 'https://twitter.com/i/oauth2/authorize',
    tokenUrl: 'https://api.twitter.com/2/oauth2/token',
    scope: 'users.read tweet.read',
  },
  vkontakte: {
    authorizeUrl: 'https://oauth.vk.com/authorize',
    tokenUrl: 'https://oauth.vk.com/access_token',
    scope: 'email',
  },
  dropbox: {
    authorizeUrl: 'https://www.dropbox.com/oauth2/authorize',
    tokenUrl: 'https://api.dropboxapi.com/oauth2/token',
    scope: 'files.content.write',
  },
  gdrive: {
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    scope: 'https://www.googleapis.com/auth/drive.file',
  },
};

export function isProvider(name: string): name is ProviderName {
  return (PROVIDERS as readonly string[]).includes(name);
}

/** The provider's endpoints with the operator's overrides applied, or undefined when not configured. */
export function providerSettings(config: ProvidersConfig, name: ProviderName): (ProviderEndpoints & ProviderConfig) | undefined {
  const own = config[name];
  if (!own?.clientId || !own.clientSecret) return undefined;
  const defaults = PROVIDER_ENDPOINTS[name];
  return {
    ...own,
    scope: defaults.scope,
    authorizeUrl: own.authorizeUrl ?? defaults.authorizeUrl,
    tokenUrl: own.tokenUrl ?? defaults.tokenUrl,
  };
}

/**
 * Reads provider settings from the environment: `TIDEMARK_<PROVIDER>_CLIENT_ID` and
 * `TIDEMARK_<PROVIDER>_CLIENT_SECRET` (optionally `_AUTHORIZE_URL`, `_TOKEN_URL`),
 * e.g. TIDEMARK_DROPBOX_CLIENT_ID.
 */
export function providersFromEnv(env: Record<string, string | undefined>): ProvidersConfig {
  const out: ProvidersConfig = {};
  for (const name of PROVIDERS) {
    const prefix = `TIDEMARK_${name.toUpperCase()}_`;
    const clientId = env[`${prefix}CLIENT_ID`];
    const clientSecret = env[`${prefix}CLIENT_SECRET`];
    if (!clientId && !clientSecret) continue;
    // One without the other would leave the provider off without a word.
    if (!clientId || !clientSecret) throw new Error(`${prefix}CLIENT_ID and ${prefix}CLIENT_SECRET go together: set both, or neither.`);
    out[name] = {
      clientId,
      clientSecret,
      authorizeUrl: env[`${prefix}AUTHORIZE_URL`] || undefined,
      tokenUrl: env[`${prefix}TOKEN_URL`] || undefined,
    };
  }
  return out;
}
