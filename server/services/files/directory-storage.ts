import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { stageStream, sweepOldFiles, tempPath, type StagedFile } from './staging.js';
import { checkKey, FileStorageError, type FileStorage } from './storage.js';

/**
 * Files in a directory: `<dataDir>/files` by default, or any directory several server instances
 * share (`TIDEMARK_FILES_DIR`, e.g. an NFS mount). Every write goes to `tmp/` inside the same
 * directory first and is renamed into place, so a file at its final path is always complete, for
 * this process and for every other one reading the directory.
 */
export class DirectoryStorage implements FileStorage {
  readonly root: string;
  readonly description: string;
  private readonly tmpDir: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.tmpDir = path.join(this.root, 'tmp');
    this.description = `directory ${this.root}`;
  }

  /** The absolute path of a key; refuses anything that would leave the root. */
  absolute(key: string): string {
    const full = path.resolve(this.root, checkKey(key));
    if (!full.startsWith(this.root + path.sep)) throw new Error(`stored path escapes the files folder: ${key}`);
    return full;
  }

  async check(): Promise<void> {
    try {
      await fs.promises.mkdir(this.tmpDir, { recursive: true });
      const probe = tempPath(this.tmpDir);
      await fs.promises.writeFile(probe, 'probe', { flag: 'wx' });
      await fs.promises.rm(probe);
    } catch (error) {
      throw new FileStorageError(
        `The files directory ${this.root} cannot be written (${(error as Error).message}). ` +
          'Check that it exists and that the server\'s user may write it, or point TIDEMARK_FILES_DIR (serve --files) at another directory.',
      );
    }
  }

  stage(stream: Readable): Promise<StagedFile> {
    return stageStream(stream, this.tmpDir);
  }

  async commit(staged: StagedFile, key: string): Promise<void> {
    const target = this.absolute(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.rename(staged.tmp, target);
  }

  async write(key: string, data: Buffer | string): Promise<{ size: number; sha256: string }> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const target = this.absolute(key);
    await fs.promises.mkdir(this.tmpDir, { recursive: true });
    const tmp = tempPath(this.tmpDir);
    try {
      await fs.promises.writeFile(tmp, bytes, { flag: 'wx' });
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      await fs.promises.rename(tmp, target);
    } catch (error) {
      await fs.promises.rm(tmp, { force: true });
      throw error;
    }
    return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

  async open(key: string): Promise<Readable | null> {
    // Opening first (not checking, then opening) leaves no gap for another instance's delete.
    const handle = await fs.promises.open(this.absolute(key), 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    return handle ? handle.createReadStream() : null;
  }

  async remove(key: string): Promise<void> {
    await fs.promises.rm(this.absolute(key), { force: true });
  }

  async discard(tmp: string): Promise<void> {
    await fs.promises.rm(tmp, { force: true });
  }

  sweepTemp(ageMs: number, now = Date.now()): Promise<number> {
    return sweepOldFiles(this.tmpDir, ageMs, now);
  }
}
