import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliAsync, spawnCli } from '../helpers/process.js';
import { startServer, type TestServer } from '../helpers/server.js';

// `npm run server -- import --email E --file F [--collection ID]`, run as a real child process
// against a server's database (its data directory, or its PostgreSQL database), then checked
// through that server's API.

const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** Each test runs 3-8 CLI processes one after another, which can take over 30 s on a busy machine. */
const CLI_TESTS = 120_000;
const FIXTURES = path.join(ROOT, 'tests', 'fixtures', 'import');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-import-cli-'));
let s: TestServer;
let base: string;

const tokenOf = (email: string) => JSON.parse(runCli(['token:create', '--email', email, ...s.cliArgs]).stdout).access_token as string;
const makeUser = (email: string) => {
  expect(runCli(['user:create', '--email', email, '--password', 'longenough', ...s.cliArgs]).status).toBe(0);
  return tokenOf(email);
};
const api = async (token: string, p: string) =>
  (await fetch(base + p, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<any>;

/** Every bookmark of the user (all pages of collection 0). */
async function allBookmarks(token: string): Promise<{ link: string; collectionId: number; tags: string[]; title: string }[]> {
  const out = [];
  for (let page = 0; ; page++) {
    const res = await api(token, `/bookmarks/0?perpage=50&page=${page}`);
    out.push(...res.items);
    if (res.items.length < 50) return out;
  }
}

beforeAll(async () => {
  s = await startServer();
  base = s.url;
});
afterAll(async () => {
  await s?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('import command', { timeout: CLI_TESTS }, () => {
  it('creates the folders as nested collections and the bookmarks in them, with a summary on stdout', async () => {
    const token = makeUser('cli-import@example.test');
    const res = runCli(['import', '--email', 'cli-import@example.test', '--file', path.join(FIXTURES, 'firefox-bookmarks.html'), ...s.cliArgs]);
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({
      created: 4, duplicates: 0, failed: 0, skipped: 2, total: 4, collections: 4, resumed: false, alreadyDone: false,
    });
    // Not a terminal: plain progress lines and a summary a person can read.
    expect(res.stderr).toMatch(/^progress: 4\/4 \(100%\)/m);
    expect(res.stderr).toMatch(/Imported firefox-bookmarks\.html: 4 created, 0 duplicates skipped, 0 failed, 2 entries without a web link left out\./);

    const roots = await api(token, '/collections');
    expect(roots.items.map((c: { title: string }) => c.title)).toEqual(['Bookmarks Menu', 'Bookmarks Toolbar', 'Other Bookmarks']);
    const children = await api(token, '/collections/childrens');
    const toolbar = roots.items.find((c: { title: string }) => c.title === 'Bookmarks Toolbar');
    expect(children.items.map((c: { title: string; parent: { $id: number } }) => [c.title, c.parent.$id])).toEqual([['Work', toolbar._id]]);
    const work = children.items[0]._id;
    const inWork = await api(token, `/bookmarks/${work}`);
    expect(inWork.items).toHaveLength(1);
    expect(inWork.items[0]).toMatchObject({ link: 'https://tracker.example.com/issues?q=open', title: 'Open issues', tags: ['work'], excerpt: 'Team tracker' });
    expect(inWork.items[0].created).toBe(new Date(1600000008 * 1000).toISOString());
  });

  it('skips links already saved, and running the same file again does nothing', async () => {
    const token = makeUser('cli-dups@example.test');
    await fetch(`${base}/bookmark`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ link: 'https://www.longread.example.com/story/' }),
    });
    const first = runCli(['import', '--email', 'cli-dups@example.test', '--file', path.join(FIXTURES, 'pocket-export.csv'), ...s.cliArgs]);
    expect(JSON.parse(first.stdout)).toMatchObject({ created: 2, duplicates: 1, failed: 0 });
    const again = runCli(['import', '--email', 'cli-dups@example.test', '--file', path.join(FIXTURES, 'pocket-export.csv'), ...s.cliArgs]);
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 2, duplicates: 1, alreadyDone: true });
    expect(again.stderr).toMatch(/already imported/);
    // The same links from another export (Pocket HTML) are all duplicates now.
    const html = runCli(['import', '--email', 'cli-dups@example.test', '--file', path.join(FIXTURES, 'pocket-export.html'), ...s.cliArgs]);
    expect(JSON.parse(html.stdout)).toMatchObject({ created: 1, duplicates: 2 });
    expect(await allBookmarks(token)).toHaveLength(4);
  });

  it('--collection ID puts the file\'s folders under that collection; --collection=-1 puts everything in Unsorted', async () => {
    const token = makeUser('cli-target@example.test');
    const made = await fetch(`${base}/collection`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Imported' }),
    }).then((r) => r.json());
    const id = made.item._id;
    const res = runCli(['import', '--email', 'cli-target@example.test', '--file', path.join(FIXTURES, 'chrome-bookmarks.html'), '--collection', String(id), ...s.cliArgs]);
    expect(JSON.parse(res.stdout)).toMatchObject({ created: 4, collections: 4 });
    const children = await api(token, '/collections/childrens');
    expect(children.items.filter((c: { parent: { $id: number } }) => c.parent.$id === id).map((c: { title: string }) => c.title)).toEqual([
      'Bookmarks bar',
      'Other bookmarks',
    ]);
    const unsorted = runCli(['import', '--email', 'cli-target@example.test', '--file', path.join(FIXTURES, 'instapaper-export.csv'), '--collection=-1', ...s.cliArgs]);
    expect(JSON.parse(unsorted.stdout)).toMatchObject({ created: 4, collections: 0 });
    expect((await api(token, '/bookmarks/-1')).count).toBe(4);
  });

  it('says what is wrong: unknown account, missing file, not an export, a collection that is not yours', () => {
    makeUser('cli-errors@example.test');
    const noUser = runCli(['import', '--email', 'nobody@example.test', '--file', path.join(FIXTURES, 'pocket-export.csv'), ...s.cliArgs]);
    expect(noUser.status).not.toBe(0);
    expect(noUser.stderr).toMatch(/No account with the email nobody@example\.test/);
    const noFile = runCli(['import', '--email', 'cli-errors@example.test', '--file', '/nonexistent/export.html', ...s.cliArgs]);
    expect(noFile.stderr).toMatch(/Cannot read --file .*no such file/);
    const junk = runCli(['import', '--email', 'cli-errors@example.test', '--file', path.join(FIXTURES, 'junk.bin'), ...s.cliArgs]);
    expect(junk.status).not.toBe(0);
    expect(junk.stderr).toMatch(/junk\.bin: file is not a Netscape bookmark file/);
    expect(junk.stdout).toBe('');
    const notMine = runCli(['import', '--email', 'cli-errors@example.test', '--file', path.join(FIXTURES, 'pocket-export.csv'), '--collection', '1', ...s.cliArgs]);
    expect(notMine.status).not.toBe(0);
    expect(notMine.stderr).toMatch(/--collection 1: /);
  }, 120_000); // six command runs of a few seconds each on a busy machine
});

describe('an import beside a server in use', () => {
  it('loses no bookmark while the server writes to the same database at the same time', async () => {
    const email = 'cli-beside@example.test';
    const token = makeUser(email);
    const COUNT = 3000;
    let html = '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><H3>Busy</H3>\n<DL><p>\n';
    for (let i = 0; i < COUNT; i++) html += `<DT><A HREF="https://beside.example.com/item/${i}" ADD_DATE="1600000000">Item ${i}</A>\n`;
    html += '</DL><p>\n</DL>\n';
    const file = path.join(work, 'beside-export.html');
    fs.writeFileSync(file, html);

    // The user keeps saving pages through the API while the command runs.
    const write = (i: number) =>
      fetch(`${base}/bookmark`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ link: `https://live.example.com/page/${i}`, title: `Live ${i}`, collectionId: -1 }),
      });
    let running = true;
    let saved = 0;
    const refused: string[] = [];
    const writer = (async () => {
      for (let i = 0; running; i++) {
        const res = await write(i);
        if (res.status === 200) saved++;
        else refused.push(`${res.status} ${await res.text()}`);
      }
    })();
    const res = await runCliAsync(['import', '--email', email, '--file', file, ...s.cliArgs]);
    running = false;
    await writer;
    expect(res.status, res.stderr).toBe(0);
    expect(refused).toEqual([]);
    expect(saved).toBeGreaterThan(0);
    expect(JSON.parse(res.stdout), res.stderr).toMatchObject({ created: COUNT, failed: 0 });
    expect((await api(token, '/bookmarks/0?perpage=1')).count).toBe(COUNT + saved);
  }, 120_000);
});

describe('an interrupted import', () => {
  it('continues where it stopped when run again, without duplicating bookmarks or collections', async () => {
    const email = 'cli-resume@example.test';
    const token = makeUser(email);
    const FOLDERS = 4;
    const PER_FOLDER = 2000;
    // A Tidemark export: its Unsorted bookmarks lie loose after the folders (imported first, so the kill lands among them).
    const LOOSE = 2000;
    let html = '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<H1>Tidemark bookmarks</H1>\n<DL><p>\n';
    for (let f = 0; f < FOLDERS; f++) {
      html += `<DT><H3>Part ${f}</H3>\n<DL><p>\n`;
      for (let i = 0; i < PER_FOLDER; i++) html += `<DT><A HREF="https://part${f}.example.com/item/${i}" ADD_DATE="1600000000">Item ${f}.${i}</A>\n`;
      html += '</DL><p>\n';
    }
    for (let i = 0; i < LOOSE; i++) html += `<DT><A HREF="https://unsorted.example.com/item/${i}" ADD_DATE="1600000000" DATA-EXCERPT="">Loose ${i}</A>\n`;
    html += '</DL>\n';
    const file = path.join(work, 'large-export.html');
    fs.writeFileSync(file, html);
    const total = FOLDERS * PER_FOLDER + LOOSE;

    // Killed (SIGKILL: no chance to tidy up) as soon as it reports its first thousand.
    const child = spawnCli(['import', '--email', email, '--file', file, ...s.cliArgs]);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/progress: [1-9]\d*000\//.test(stderr)) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => reject(new Error(`import ended before it could be interrupted:\n${stderr}`)));
    });
    await exited;
    const partial = (await api(token, '/bookmarks/0?perpage=1')).count as number;
    expect(partial).toBeGreaterThanOrEqual(1000);
    expect(partial).toBeLessThan(total);

    // Not spawnSync: the server runs in this process, and a long blocked event loop lets its
    // keep-alive timer close the test's connection just as the next request is sent on it.
    const again = await runCliAsync(['import', '--email', email, '--file', file, ...s.cliArgs]);
    expect(again.status).toBe(0);
    expect(again.stderr).toMatch(/Continuing the import of large-export\.html at bookmark \d+ of 10000/);
    const summary = JSON.parse(again.stdout);
    expect(summary, again.stderr).toMatchObject({ resumed: true, failed: 0, total });
    // Every bookmark of the file exactly once (a batch cut off by the kill counts as duplicates).
    expect(summary.created + summary.duplicates).toBe(total);
    expect((await api(token, '/bookmarks/0?perpage=1')).count).toBe(total);
    for (let f = 0; f < FOLDERS; f++) {
      const roots = await api(token, '/collections');
      const part = roots.items.filter((c: { title: string }) => c.title === `Part ${f}`);
      expect(part).toHaveLength(1);
      expect(part[0].count).toBe(PER_FOLDER);
    }
    // The loose ones in Unsorted, before and after the interruption; no collection for them.
    expect((await api(token, '/collections')).items).toHaveLength(FOLDERS);
    expect((await api(token, '/bookmarks/-1?perpage=1')).count).toBe(LOOSE);
    expect(summary.collections).toBe(FOLDERS);
    // No link saved twice.
    const stats = await api(token, '/user/stats');
    expect(stats.meta.duplicates.count).toBe(0);
  }, 120_000);
});
