import { systemClock } from '../../clock.js';
import { defaultConfig } from '../../config.js';
import { openCliStore } from '../store.js';
import { createMailer } from '../../services/mail/index.js';
import { deliverInvitations, linkOrigin } from '../../services/sharing/invitations.js';
import { CliError, dataDirOf, parseFlags, printJson } from '../args.js';

/**
 * `invite:resend [--collection ID] [--email E] [--all] [--public-url URL]`: mails open invitations
 * again, e.g. after the mail server was down. By default only those whose last mail failed (or was
 * never sent); `--all` every open one. Each gets a new join link and a new expiry. Mail goes where
 * `serve` sends it (TIDEMARK_SMTP_*; without them, to the outbox folder). Prints
 * `{"sent": [...], "failed": [{"email", "error"}]}`; exits 1 when any mail failed.
 */
export async function run(args: string[]): Promise<void> {
  const flags = parseFlags(args, {
    collection: { type: 'string' },
    email: { type: 'string' },
    all: { type: 'boolean' },
    'public-url': { type: 'string' },
  });
  const collectionId = flags.collection === undefined ? undefined : Number(flags.collection);
  if (collectionId !== undefined && !(Number.isInteger(collectionId) && collectionId > 0)) {
    throw new CliError(`--collection must be a collection id (a positive whole number), got "${flags.collection}".`);
  }
  const config = defaultConfig({ dataDir: dataDirOf(flags), clock: systemClock });
  const publicUrl = (flags['public-url'] as string | undefined) ?? config.publicUrl;
  if (publicUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(publicUrl)) {
    throw new CliError(`--public-url must be the service's origin, e.g. https://bookmarks.example.com; got "${publicUrl}".`);
  }
  const { repos, close } = await openCliStore(flags, config.clock);
  const mailer = createMailer(config);
  try {
    const open = await repos.sharing.findOpen({ collectionId, email: flags.email as string | undefined, unsentOnly: !flags.all });
    const ttlMs = config.invitationTtlDays * 24 * 3600_000;
    const renewed = [];
    for (const inv of open) {
      const r = await repos.sharing.renew(inv.id, ttlMs);
      if (r) renewed.push(r);
    }
    const log = {
      info: (_o: object, msg: string) => process.stderr.write(`${msg}\n`),
      warn: (_o: object, msg: string) => process.stderr.write(`${msg}\n`),
    };
    const outcome = await deliverInvitations({ repos, mailer, origin: linkOrigin({ ...config, publicUrl }), log }, renewed);
    printJson(outcome);
    if (outcome.failed.length > 0) process.exitCode = 1;
  } finally {
    await mailer.close();
    await close();
  }
}
