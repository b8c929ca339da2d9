import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { DirectoryStorage } from '../../server/services/files/directory-storage.js';

// A files directory several server instances share (TIDEMARK_FILES_DIR / serve --files): two
// storages on one folder, as two processes would have, writing and reading the same keys at once.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-shared-files-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('a shared files directory', () => {
  const a = new DirectoryStorage(root);
  const b = new DirectoryStorage(root);

  it('what one instance stores, the other reads at once; what one removes, the other no longer finds', async () => {
    const staged = await a.stage(Readable.from([Buffer.from('tide '), Buffer.from('table')]));
    expect(staged).toMatchObject({ size: 10, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    await a.commit(staged, 'uploads/ab/ab01');
    expect((await readAll((await b.open('uploads/ab/ab01'))!)).toString()).toBe('tide table');
    await b.remove('uploads/ab/ab01');
    expect(await a.open('uploads/ab/ab01')).toBeNull();
  });

  it('writers racing on one key never let a reader see a partial or mixed file, and leave no temporary files', async () => {
    const size = 512 * 1024;
    const versions = ['a', 'b', 'c', 'd'].map((c) => Buffer.alloc(size, c));
    await a.write('cache/00/1-race.html', versions[0]);
    const seen = new Set<string>();
    let stop = false;
    const reader = async (store: DirectoryStorage) => {
      while (!stop) {
        const bytes = await readAll((await store.open('cache/00/1-race.html'))!);
        expect(bytes.length).toBe(size);
        expect(bytes.every((x) => x === bytes[0])).toBe(true);
        seen.add(String.fromCharCode(bytes[0]));
      }
    };
    const writer = async (store: DirectoryStorage, offset: number) => {
      for (let i = 0; i < 40; i++) await store.write('cache/00/1-race.html', versions[(i + offset) % versions.length]);
    };
    const readers = [reader(a), reader(b)];
    await Promise.all([writer(a, 0), writer(b, 1)]);
    stop = true;
    await Promise.all(readers);
    expect(seen.size).toBeGreaterThan(1); // the readers really saw the file change under them
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
  });

  it('sweeping removes only temporary files old enough to be left over by a stopped process', async () => {
    const old = await b.stage(Readable.from([Buffer.from('abandoned upload')]));
    const fresh = await a.stage(Readable.from([Buffer.from('upload in progress')]));
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(old.tmp, twoHoursAgo, twoHoursAgo);
    expect(await a.sweepTemp(3600_000)).toBe(1);
    expect(fs.existsSync(old.tmp)).toBe(false);
    expect(fs.existsSync(fresh.tmp)).toBe(true);
    await a.discard(fresh.tmp);
  });

  it('keys that would leave the directory are refused', async () => {
    await expect(a.write('../outside', 'x')).rejects.toThrow(/not a plain relative path/);
    await expect(a.open('/etc/passwd')).rejects.toThrow(/not a plain relative path/);
    await expect(a.remove('uploads/../../x')).rejects.toThrow(/not a plain relative path/);
  });

  it('a directory that cannot be written is reported with what to do', async () => {
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, 'not a folder');
    await expect(new DirectoryStorage(path.join(file, 'files')).check()).rejects.toThrow(
      /The files directory .*a-file\/files cannot be written .*TIDEMARK_FILES_DIR \(serve --files\)/,
    );
    await expect(a.check()).resolves.toBeUndefined();
  });
});
