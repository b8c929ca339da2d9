import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { StagedFile } from './staging.js';

export type { StagedFile } from './staging.js';

/**
 * Where the bytes of uploads, covers and permanent copies live. Two kinds exist: a directory (one
 * machine's disk, or a directory several instances share) and S3-compatible object storage. Rows
 * in the `files` and `page_cache` tables name each file by its key (a relative path such as
 * `uploads/ab/ab12...`), so the same rows work with either kind.
 *
 * An implementation keeps no state of its own between calls: several server processes may use
 * one store at once.
 */
export interface FileStorage {
  /** Where the files are, for log lines and messages: `directory /srv/files` or `S3 bucket b at http://...`. */
  readonly description: string;
  /** Verifies at start that the store can be read and written; throws a FileStorageError saying what to fix. */
  check(): Promise<void>;
  /**
   * Streams an upload into a local temporary file, hashing and counting it. The caller checks the
   * stream's own size limit (busboy marks it `truncated`) and then commits or discards.
   */
  stage(stream: Readable): Promise<StagedFile>;
  /** Moves a staged file to its key; the temporary file is gone afterwards. */
  commit(staged: StagedFile, key: string, contentType?: string): Promise<void>;
  /** Stores bytes under a key in one step, never leaving a partial object. Returns size and SHA-256. */
  write(key: string, data: Buffer | string, contentType?: string): Promise<{ size: number; sha256: string }>;
  /** A stream of the stored bytes, or null when nothing is stored under the key. */
  open(key: string): Promise<Readable | null>;
  /** Deletes the bytes under a key; a missing key is fine. */
  remove(key: string): Promise<void>;
  /** Deletes a staged temporary file; a missing one is fine. */
  discard(tmp: string): Promise<void>;
  /** Removes temporary files older than `ageMs` (left by a process that stopped mid-upload). */
  sweepTemp(ageMs: number, now?: number): Promise<number>;
}

/** A store that cannot be used as configured (at start) or cannot be reached (while serving). */
export class FileStorageError extends Error {}

/** A new random id (hex) for a file name or a stored key. */
export function newFileId(bytes = 16): string {
  return randomBytes(bytes).toString('hex');
}

/** `uploads/ab/abcdef...`: the key of a stored upload or cover. */
export function uploadKey(id: string): string {
  return `uploads/${id.slice(0, 2)}/${id}`;
}

/** The key for a new permanent copy of a bookmark. */
export function pageCopyKey(bookmarkId: number): string {
  const id = newFileId(8);
  return `cache/${id.slice(0, 2)}/${bookmarkId}-${id}.html`;
}

/** Refuses a key that is absolute or climbs out of the store (`..`), whichever kind of store. */
export function checkKey(key: string): string {
  const normal = path.posix.normalize(key);
  if (!key || path.posix.isAbsolute(key) || normal !== key || normal.startsWith('../') || normal === '..' || key.includes('\\')) {
    throw new Error(`stored file key is not a plain relative path: ${key}`);
  }
  return key;
}
