import type { Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import type { Repositories } from '../repositories/index.js';
import { BookmarkCreation } from './bookmarks/create.js';
import { createFileStorage } from './files/create-storage.js';
import type { FileStorage } from './files/storage.js';
import { createJobRunner, type JobRunner } from './jobs/index.js';
import { createTextJob, type TextJob } from './jobs/text-job/index.js';
import { createMailer, type Mailer } from './mail/index.js';
import { LinkCursors } from './link-cursors.js';
import { ParsePool } from './parse-pool/index.js';
import { PasswordGate } from './password-gate.js';
import type { Permissions } from './permissions.js';

/** Long-lived service objects created once per app. */
export interface Services {
  /** Creating bookmarks (routes and the import command). */
  bookmarkCreation: BookmarkCreation;
  jobs: JobRunner;
  /** Reads the pages of bookmarks saved without their text (search, the reader view). */
  textJob: TextJob;
  /** Where the bytes of uploads, covers and permanent copies are kept (a directory or an S3 bucket). */
  files: FileStorage;
  mailer: Mailer;
  /** Every password check (sign-in, account changes, PUT /user) and its one throttle. */
  passwordGate: PasswordGate;
  /** Where every parse of untrusted input runs: worker threads with limits, fair across users. */
  parsePool: ParsePool;
  /** The opaque, per-account cursors of GET /links. */
  linkCursors: LinkCursors;
  /** Called when the app closes, after the requests in flight: stop jobs and timers, end workers, flush mail. */
  stop(): Promise<void>;
}

/**
 * `log` is the app's logger: the background jobs write their lines where the requests' go, in the
 * same format (JSON or readable) and through the same serializers.
 */
export function createServices(config: ServerConfig, repos: Repositories, permissions: Permissions, log?: Logger): Services {
  const files = createFileStorage(config.files, config.dataDir);
  const parsePool = new ParsePool();
  const jobs = createJobRunner(config, repos, files, parsePool, log?.child({ name: 'jobs' }));
  const textJob = createTextJob(config, repos, files, parsePool, log?.child({ name: 'text-job' }));
  const mailer = createMailer(config);
  return {
    bookmarkCreation: new BookmarkCreation(repos, permissions),
    jobs,
    textJob,
    files,
    mailer,
    passwordGate: new PasswordGate(config.clock, config.web, repos.signInFailures, config.passwordHashCost),
    parsePool,
    linkCursors: new LinkCursors(() => repos.oauth.sessions.serverKey('links-cursor')),
    async stop() {
      await Promise.all([jobs.stop(), textJob.stop()]);
      await parsePool.close();
      await mailer.close();
    },
  };
}
