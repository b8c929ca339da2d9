import type { ServerConfig } from '../config.js';
import type { Repositories } from '../repositories/index.js';
import { BookmarkCreation } from './bookmarks/create.js';
import { createJobRunner, type JobRunner } from './jobs/index.js';
import { createMailer, type Mailer } from './mail/index.js';
import type { Permissions } from './permissions.js';

/** Long-lived service objects created once per app. */
export interface Services {
  /** Creating bookmarks (routes and the import command). */
  bookmarkCreation: BookmarkCreation;
  jobs: JobRunner;
  mailer: Mailer;
  /** Called when the app closes: stop timers, flush queues. */
  stop(): Promise<void>;
}

export function createServices(config: ServerConfig, repos: Repositories, permissions: Permissions): Services {
  const jobs = createJobRunner(config, repos);
  const mailer = createMailer(config);
  return {
    bookmarkCreation: new BookmarkCreation(repos, permissions),
    jobs,
    mailer,
    async stop() {
      await jobs.stop();
      await mailer.close();
    },
  };
}
