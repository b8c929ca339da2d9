import type { ServerConfig } from '../config.js';
import type { Repositories } from '../repositories/index.js';
import { createJobRunner, type JobRunner } from './jobs/index.js';
import { createMailer, type Mailer } from './mail/index.js';

/** Long-lived service objects created once per app. */
export interface Services {
  jobs: JobRunner;
  mailer: Mailer;
  /** Called when the app closes: stop timers, flush queues. */
  stop(): Promise<void>;
}

export function createServices(config: ServerConfig, repos: Repositories): Services {
  const jobs = createJobRunner(config, repos);
  const mailer = createMailer(config);
  return {
    jobs,
    mailer,
    async stop() {
      await jobs.stop();
      await mailer.close();
    },
  };
}
