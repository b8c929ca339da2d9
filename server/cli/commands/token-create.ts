import { openCliStore } from '../store.js';
import { CliError, parseFlags, printJson, required } from '../args.js';

/** `token:create --email E`: prints `{"access_token": "..."}`, a test token that never expires. */
export async function run(args: string[]): Promise<void> {
  const flags = parseFlags(args, { email: { type: 'string' } });
  const email = required(flags, 'email');
  const { repos, close } = await openCliStore(flags);
  try {
    const user = await repos.users.byEmail(email);
    if (!user) throw new CliError(`No account with the email ${email}. Create it first with user:create.`, 1);
    const { token } = await repos.tokens.create({ userId: user.id, kind: 'test' });
    printJson({ access_token: token });
  } finally {
    await close();
  }
}
