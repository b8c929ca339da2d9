import type { ServerConfig } from '../../config.js';
import type { Repositories } from '../../repositories/index.js';

/** Background work (page parsing for `pleaseParse`, permanent copies): durable, retried, survives restarts. */
export interface JobRunner {
  start(): void;
  stop(): Promise<void>;
}

export function createJobRunner(_config: ServerConfig, _repos: Repositories): JobRunner {
  return { start() {}, async stop() {} };
}
