import { DuplicateEmailError, toUser } from '../../repositories/index.js';
import { openCliStore } from '../store.js';
import { passwordHashCostFromEnv } from '../../config.js';
import { hashPassword, lowPasswordCostWarning } from '../../services/passwords.js';
import { CliError, parseFlags, printJson, required } from '../args.js';

/** `user:create --email E --password P [--name N] [--pro]`: prints the created user as JSON. */
export async function run(args: string[]): Promise<void> {
  const flags = parseFlags(args, {
    email: { type: 'string' },
    password: { type: 'string' },
    name: { type: 'string' },
    pro: { type: 'boolean' },
  });
  const email = required(flags, 'email').trim();
  const password = required(flags, 'password');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new CliError(`--email "${email}" is not an email address.`);
  if (password.length < 8) throw new CliError('--password must be at least 8 characters.');
  const cost = passwordHashCostFromEnv(process.env);
  const costWarning = lowPasswordCostWarning(cost);
  if (costWarning) process.stderr.write(`${costWarning}\n`);
  const { repos, close } = await openCliStore(flags);
  try {
    const row = await repos.users.create({
      email,
      passwordHash: await hashPassword(password, cost),
      fullName: (flags.name as string | undefined) ?? '',
      pro: !!flags.pro,
    });
    printJson(toUser(row));
  } catch (err) {
    if (err instanceof DuplicateEmailError) throw new CliError(err.message, 1);
    throw err;
  } finally {
    await close();
  }
}
