import type { Repositories } from '../repositories/types.js';

/**
 * An open database behind the repository contract: what the app and the commands hold instead
 * of a connection. Which backend it is matters only where it is opened (`openStore`).
 */
export interface Store {
  readonly backend: 'sqlite' | 'postgres';
  readonly repos: Repositories;
  /** Starts background upkeep tied to the server's life; `warn` hears of failures. */
  start(warn: (message: string) => void): void;
  /** Stops upkeep and closes the database. */
  close(): Promise<void>;
}
