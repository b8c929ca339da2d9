import type { Repositories } from '../repositories/types/index.js';

/**
 * An open database behind the repository contract: what the app and the commands hold instead
 * of a connection. Which backend it is matters only where it is opened (`openStore`).
 */
export interface Store {
  readonly backend: 'sqlite' | 'postgres';
  readonly repos: Repositories;
  /** Starts background upkeep tied to the server's life; `warn` hears of failures. */
  start(warn: (message: string) => void): void;
  /**
   * True when `err` means the database cannot be reached right now (a lost connection, a server
   * restarting): the request is answered 503 and may be retried; the store reconnects by itself.
   */
  isUnavailable(err: unknown): boolean;
  /**
   * Whether requests can be served now: undefined when the database answers and its schema is
   * this code's, else the reason in words for an operator (no address, path or credentials).
   */
  checkReady(): Promise<string | undefined>;
  /** Stops upkeep and closes the database. */
  close(): Promise<void>;
}
