import type { ServerConfig } from '../config.js';
import type { Repositories } from '../repositories/index.js';

/** Long-lived service objects (mail, background jobs) created once per app. */
export interface Services {
  /** Called when the app closes: stop timers, flush queues. */
  stop(): Promise<void>;
}

export function createServices(_config: ServerConfig, _repos: Repositories): Services {
  return { stop: async () => {} };
}
