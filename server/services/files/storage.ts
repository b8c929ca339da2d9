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

/**
 * The bytes of uploads, covers and permanent copies, under `<dataDir>/files/`. Every write goes to
 * `tmp/` first and is renamed into place, so a file at its final path is always complete.
 * Paths handed in and out are relative to the root and never leave it.
 */
export class FileStore {
  readonly root: string;
  private readonly tmpDir: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'files');
    this.tmpDir = path.join(this.root, 'tmp');
  }

  /** A new random id (hex) for a file name or a stored path. */
  static newId(bytes = 16): string {
    return randomBytes(bytes).toString('hex');
  }

  /** `ab/abcdef...` style relative path for a stored upload. */
  static uploadPath(id: string): string {
    return `uploads/${id.slice(0, 2)}/${id}`;
  }

  /** Relative path for a new permanent copy of a bookmark. */
  static cachePath(bookmarkId: number): string {
    const id = FileStore.newId(8);
    return `cache/${id.slice(0, 2)}/${bookmarkId}-${id}.html`;
  }

  /** The absolute path of a stored relative path; refuses anything that would leave the root. */
  absolute(relative: string): string {
    const full = path.resolve(this.root, relative);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`stored path escapes the files folder: ${relative}`);
    return full;
  }

  /**
   * Streams an upload into a temporary file, hashing and counting it. The caller checks the
   * stream's own size limit (busboy marks it `truncated`) and either commits or discards.
   */
  async stage(stream: Readable): Promise<StagedFile> {
    await fs.promises.mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, FileStore.newId());
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
      await this.discard(tmp);
      throw error;
    }
    return { tmp, size, sha256: hash.digest('hex'), head: Buffer.concat(headChunks) };
  }

  /** Moves a staged file to its final relative path. */
  async commit(staged: StagedFile, relative: string): Promise<void> {
    const target = this.absolute(relative);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.rename(staged.tmp, target);
  }

  /** Writes bytes to a relative path (through a temporary file). Returns size and SHA-256. */
  async write(relative: string, data: Buffer | string): Promise<{ size: number; sha256: string }> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    await fs.promises.mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, FileStore.newId());
    await fs.promises.writeFile(tmp, bytes, { flag: 'wx' });
    const target = this.absolute(relative);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.rename(tmp, target);
    return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

  async read(relative: string): Promise<Buffer> {
    return fs.promises.readFile(this.absolute(relative));
  }

  /** A read stream, or null when the bytes are missing on disk. */
  async open(relative: string): Promise<fs.ReadStream | null> {
    const full = this.absolute(relative);
    try {
      await fs.promises.access(full, fs.constants.R_OK);
    } catch {
      return null;
    }
    return fs.createReadStream(full);
  }

  /** Deletes a stored file; a missing one is fine. */
  async remove(relative: string): Promise<void> {
    await fs.promises.rm(this.absolute(relative), { force: true });
  }

  /** Deletes a staged temporary file; a missing one is fine. */
  async discard(tmp: string): Promise<void> {
    await fs.promises.rm(tmp, { force: true });
  }

  /** Removes temporary files older than `ageMs` (left by a process that stopped mid-upload). */
  async sweepTemp(ageMs: number, now = Date.now()): Promise<number> {
    let names: string[];
    try {
      names = await fs.promises.readdir(this.tmpDir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const full = path.join(this.tmpDir, name);
      try {
        const stat = await fs.promises.stat(full);
        if (now - stat.mtimeMs > ageMs) {
          await fs.promises.rm(full, { force: true });
          removed++;
        }
      } catch {
        /* gone meanwhile */
      }
    }
    return removed;
  }
}
