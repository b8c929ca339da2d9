import { openDatabase } from '../../db/open.js';
import { systemClock } from '../../clock.js';
import { TokensRepository } from '../../repositories/tokens.js';
import { UsersRepository } from '../../repositories/users.js';
import { CliError, dataDirOf, parseFlags, printJson, required } from '../args.js';

/** `token:create --email E`: prints `{"access_token": "..."}`, a test token that never expires. */
export async function run(args: string[]): Promise<void> {
  const flags = parseFlags(args, { email: { type: 'string' } });
  const email = required(flags, 'email');
  const db = openDatabase(dataDirOf(flags));
  try {
    const user = await new UsersRepository(db, systemClock).byEmail(email);
    if (!user) throw new CliError(`No account with the email ${email}. Create it first with user:create.`, 1);
    const { token } = await new TokensRepository(db, systemClock).create({ userId: user.id, kind: 'test' });
    printJson({ access_token: token });
  } finally {
    db.close();
  }
}
