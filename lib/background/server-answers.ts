// Reading the server's answers the same way in every service: failures that mean "offline, queue
// it", errors turned into messages for people, and which bookmark url/exists found for one link.
import { ApiClientError } from '../api/client/index.js';
import type { UrlExistsResponse } from '../api/types.js';
import { normalizeUrl } from '../api/url.js';
import { UserFacingError } from '../messaging/router.js';

/** The server could not be reached (or answered "try later"): the write goes to the offline queue. */
export const isOffline = (err: unknown): boolean => err instanceof ApiClientError && err.temporary;

/** Server errors as messages for people; a refused token means signed out. */
export function userError(err: unknown): Error {
  if (err instanceof ApiClientError) return new UserFacingError(err.message, err.kind === 'unauthorized' ? 'signed-out' : 'server');
  return err as Error;
}

/** The id of the saved bookmark url/exists found for a link asked alone (link key `key`), or null. */
export function savedIdOf(res: UrlExistsResponse, key: string): number | null {
  return res.duplicates?.find((d) => normalizeUrl(d.link) === key)?._id ?? (res.result ? (res.ids[0] ?? null) : null);
}
