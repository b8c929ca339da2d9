import { openCliStore } from '../store.js';
import { redirectListProblem } from '../../services/oauth/redirect-uri.js';
import { CliError, parseFlags, printJson, required } from '../args.js';

/**
 * `app:create --email E --name N --redirect URL [--redirect URL2 ...] [--public]`: registers an
 * OAuth application owned by the account E and prints `{"client_id", "client_secret"}` (public
 * clients, e.g. browser extensions, get no secret and must use PKCE).
 */
export async function run(args: string[]): Promise<void> {
  const flags = parseFlags(args, {
    email: { type: 'string' },
    name: { type: 'string' },
    redirect: { type: 'string', multiple: true },
    public: { type: 'boolean' },
  });
  const email = required(flags, 'email');
  const name = required(flags, 'name').trim();
  if (name.length > 100) throw new CliError('--name must be at most 100 characters.');
  const redirects = ((flags.redirect as string[] | undefined) ?? []).map((r) => r.trim()).filter(Boolean);
  if (redirects.length === 0) throw new CliError('--redirect is required: the exact URL the app receives codes at.');
  const problem = redirectListProblem([...new Set(redirects)]);
  if (problem) throw new CliError(`--redirect: ${problem}`);
  const { repos, close } = await openCliStore(flags);
  try {
    const user = await repos.users.byEmail(email);
    if (!user) throw new CliError(`No account with the email ${email}. Create it first with user:create.`, 1);
    const { client, secret } = await repos.oauth.clients.create({
      ownerId: user.id,
      name,
      kind: flags.public ? 'public' : 'confidential',
      redirectUris: [...new Set(redirects)],
    });
    printJson(secret ? { client_id: client.client_id, client_secret: secret } : { client_id: client.client_id });
  } finally {
    await close();
  }
}
