import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** What streaming an upload to a temporary file found out. */
export interface StagedFile {
  /** absolute path of the temporary file */
  tmp: string;
  size: number;
  sha256: string;
  /** the first bytes, for content sniffing */
  head: Buffer;
}

const HEAD_BYTES = 4096;

/** A fresh temporary file name in `dir` (random, so processes sharing the folder never collide). */
export function tempPath(dir: string): string {
  return path.join(dir, `${randomBytes(16).toString('hex')}.part`);
}

/** Streams `stream` into a new file in `dir`, hashing and counting it on the way. */
export async function stageStream(stream: Readable, dir: string): Promise<StagedFile> {
  await fs.promises.mkdir(dir, { recursive: true });
  const tmp = tempPath(dir);
  const hash = createHash('sha256');
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      if (headLength < HEAD_BYTES) {
        headChunks.push(chunk.subarray(0, HEAD_BYTES - headLength));
        headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(stream, tap, fs.createWriteStream(tmp, { flags: 'wx' }));
  } catch (error) {
    await fs.promises.rm(tmp, { force: true });
    throw error;
  }
  return { tmp, size, sha256: hash.digest('hex'), head: Buffer.concat(headChunks) };
}

/** Removes files in `dir` older than `ageMs`; a missing folder or a file gone meanwhile is fine. */
export async function sweepOldFiles(dir: string, ageMs: number, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return 0; // no temporary folder yet: nothing to sweep
  }
  let removed = 0;
  for (const name of names) {
    const full = path.join(dir, name);
    try {
      const stat = await fs.promises.stat(full);
      if (now - stat.mtimeMs > ageMs) {
        await fs.promises.rm(full, { force: true });
        removed++;
      }
    } catch {
      // removed meanwhile by another process sweeping the same folder
    }
  }
  return removed;
}
