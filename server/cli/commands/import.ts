import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { TRASH, UNSORTED } from '../../../lib/api/constants.js';
import { BookmarkCreate } from '../../../lib/api/schemas/bookmark.js';
import type { BookmarkCreate as BookmarkCreateBody } from '../../../lib/api/types.js';
import { openCliStore } from '../store.js';
import { ApiError } from '../../errors.js';
import type { ImportRunRow, ImportRunsRepository } from '../../repositories/index.js';
import type { Repositories } from '../../repositories/index.js';
import { BookmarkCreation, type PreparedBookmark } from '../../services/bookmarks/create.js';
import { convertImportFile, ImportFormatError, type ImportBookmark, type ImportFolder } from '../../services/import/index.js';
import { Permissions, type CollectionAccess } from '../../services/permissions.js';
import { CliError, parseFlags, printJson, required } from '../args.js';
import { Progress } from '../progress.js';

const BATCH = 100;

/** A bookmark of the file in file order, with the path of its folder ("0/2/1"). */
interface Entry {
  folder: string;
  bookmark: ImportBookmark;
}

/**
 * A folder of the file: its path, its parent's path ('' for top-level folders) and title;
 * `unsorted` for the folder of a Tidemark export's Unsorted bookmarks (no collection is made for it).
 */
interface FolderEntry {
  path: string;
  parent: string;
  title: string;
  unsorted: boolean;
}

function flatten(items: ImportFolder[]): { folders: FolderEntry[]; entries: Entry[] } {
  const folders: FolderEntry[] = [];
  const entries: Entry[] = [];
  const walk = (folder: ImportFolder, at: string, parent: string) => {
    folders.push({ path: at, parent, title: folder.title, unsorted: folder.unsorted === true });
    for (const bookmark of folder.bookmarks) entries.push({ folder: at, bookmark });
    folder.folders.forEach((child, i) => walk(child, `${at}/${i}`, at));
  };
  items.forEach((folder, i) => walk(folder, String(i), ''));
  return { folders, entries };
}

// The same checks POST /bookmarks runs: the body schema (strict, like the route's JSON bodies),
// then readCreate (links, dates, tags, collections).
const ajv = addFormats(new Ajv({ allErrors: false, useDefaults: true, removeAdditional: true, strict: false, coerceTypes: false }));
const checkBody = ajv.compile(BookmarkCreate as object);

function toBody(b: ImportBookmark, collectionId: number): BookmarkCreateBody {
  return {
    link: b.link,
    title: b.title,
    excerpt: b.excerpt,
    note: b.note,
    tags: b.tags,
    created: b.created,
    lastUpdate: b.lastUpdate,
    cover: b.cover,
    media: b.media,
    important: b.important,
    collectionId,
  };
}

function describeSchemaError(): string {
  const first = checkBody.errors?.[0];
  if (!first) return 'invalid bookmark';
  return `${first.instancePath.slice(1).replace(/\//g, '.') || 'bookmark'} ${first.message ?? 'is invalid'}`;
}

/**
 * `import --email E --file F [--collection ID] [--data DIR]`: converts a bookmark export (Netscape
 * HTML, Pocket HTML/CSV, Instapaper CSV) and saves it: each folder becomes a collection (nested
 * as in the file; under ID when given, `--collection -1` puts everything in Unsorted), bookmarks
 * are created in batches of 100 through the same write path as POST /bookmarks, links already
 * saved are skipped. The bookmarks of a folder flagged `unsorted` (a Tidemark export's Unsorted)
 * go to Unsorted, or straight into ID when given, and no collection is made for that folder. Progress goes to stderr, the summary to stdout as JSON. Interrupted, the same
 * command continues where it stopped (progress is kept per user, file content and target).
 */
export async function run(args: string[]): Promise<void> {
  const flags = parseFlags(args, {
    email: { type: 'string' },
    file: { type: 'string' },
    collection: { type: 'string' },
  });
  const email = required(flags, 'email').trim();
  const file = path.resolve(required(flags, 'file'));
  let target = 0;
  if (flags.collection !== undefined) {
    target = Number(flags.collection);
    if (!Number.isInteger(target) || target === 0 || target === TRASH || (target < 0 && target !== UNSORTED)) {
      throw new CliError(`--collection must be the id of one of your collections, or -1 for Unsorted; got "${flags.collection}".`);
    }
  }
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (err) {
    throw new CliError(`Cannot read --file ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}.`);
  }

  const { repos, close } = await openCliStore(flags);
  try {
    const permissions = new Permissions(repos.access);
    const creation = new BookmarkCreation(repos, permissions);
    const user = await repos.users.byEmail(email);
    if (!user) throw new CliError(`No account with the email ${email}. Create it first with user:create.`, 1);
    let ownerId = user.id;
    if (target !== 0) {
      try {
        ownerId = (await permissions.requireCollection(user.id, target, 'write')).ownerId;
      } catch (err) {
        if (err instanceof ApiError) {
          throw new CliError(`--collection ${target}: ${err.status === 404 ? 'no such collection' : err.message}.`, 1);
        }
        throw err;
      }
    }

    let converted;
    try {
      converted = convertImportFile(buf, path.basename(file));
    } catch (err) {
      if (err instanceof ImportFormatError) throw new CliError(err.message, 1);
      throw err;
    }
    const { folders, entries } = flatten(converted.items);
    const runs = repos.importRuns;
    const fileSha256 = createHash('sha256').update(buf).digest('hex');

    let runRow = await runs.find(user.id, fileSha256, target);
    if (runRow?.state === 'done') {
      process.stderr.write(
        `${path.basename(file)} was already imported for ${email} (${runRow.updated_at}); nothing to do.\n`,
      );
      printJson(summary(runRow, converted.count.skipped, 0, true));
      return;
    }
    const resumed = runRow !== undefined;
    runRow ??= await runs.start({ userId: user.id, fileSha256, fileName: path.basename(file), target, total: entries.length });
    if (resumed) process.stderr.write(`Continuing the import of ${path.basename(file)} at bookmark ${runRow.next_index + 1} of ${entries.length}.\n`);

    const folderIds = target === UNSORTED ? new Map<string, number>() : await makeCollections(repos, runs, runRow.id, folders, ownerId, target);
    const collections = target === UNSORTED ? 0 : folders.filter((f) => !f.unsorted).length;

    let tally = { created: runRow.created_count, duplicates: runRow.duplicates, failed: runRow.failed };
    const progress = new Progress({
      total: entries.length,
      label: () => `created ${tally.created}, duplicates ${tally.duplicates}, failed ${tally.failed}`,
    });
    const failures: string[] = [];
    progress.update(runRow.next_index);
    for (let start = runRow.next_index; start < entries.length; start += BATCH) {
      const batch = entries.slice(start, start + BATCH);
      const result = await importBatch(repos, creation, batch, folderIds, { userId: user.id, ownerId, unsorted: target === UNSORTED }, failures);
      runRow = await runs.advance(runRow.id, start + batch.length, result);
      tally = { created: runRow.created_count, duplicates: runRow.duplicates, failed: runRow.failed };
      progress.update(start + batch.length);
    }
    progress.finish();
    runRow = await runs.finish(runRow.id);
    await repos.users.touchBookmarks(ownerId);

    for (const line of failures.slice(0, 20)) process.stderr.write(`failed: ${line}\n`);
    if (failures.length > 20) process.stderr.write(`failed: ... and ${failures.length - 20} more\n`);
    process.stderr.write(
      `Imported ${path.basename(file)}: ${runRow.created_count} created, ${runRow.duplicates} duplicates skipped, ` +
        `${runRow.failed} failed${converted.count.skipped ? `, ${converted.count.skipped} entries without a web link left out` : ''}.\n`,
    );
    printJson(summary(runRow, converted.count.skipped, collections, false, resumed));
  } finally {
    await close();
  }
}

function summary(row: ImportRunRow, skipped: number, collections: number, alreadyDone: boolean, resumed = false) {
  return {
    created: row.created_count,
    duplicates: row.duplicates,
    failed: row.failed,
    skipped,
    total: row.total,
    collections,
    resumed,
    alreadyDone,
  };
}

/**
 * Creates a collection for every folder of the file not made yet in this run, parents first and
 * siblings in reverse, so that (newest first among siblings) they list in file order. A folder
 * flagged `unsorted` gets none: it maps to the target (Unsorted without --collection), and is not
 * recorded in the run, so a resumed run maps it again the same way (folder paths are stable for
 * the same file content).
 */
async function makeCollections(
  repos: Repositories,
  runs: ImportRunsRepository,
  runId: number,
  folders: FolderEntry[],
  ownerId: number,
  target: number,
): Promise<Map<string, number>> {
  const made = await runs.folders(runId);
  const children = new Map<string, FolderEntry[]>();
  for (const f of folders) {
    const list = children.get(f.parent);
    if (list) list.push(f);
    else children.set(f.parent, [f]);
  }
  const visit = async (parentPath: string, parentId: number | null) => {
    const list = [...(children.get(parentPath) ?? [])].reverse();
    for (const folder of list) {
      if (folder.unsorted) {
        made.set(folder.path, parentId ?? UNSORTED);
        continue;
      }
      let id = made.get(folder.path);
      if (id === undefined) {
        const row = await repos.collections.create(ownerId, { title: folder.title.trim() || 'Untitled folder', parentId });
        id = row.id;
        await runs.saveFolder(runId, folder.path, id);
        made.set(folder.path, id);
      }
    }
    // (The reader never nests folders in a flagged one; should a file do so, they go where it would.)
    for (const folder of list) await visit(folder.path, folder.unsorted ? parentId : made.get(folder.path)!);
  };
  await visit('', target > 0 ? target : null);
  return made;
}

/**
 * One batch: each entry is checked and placed by the same service as a POST /bookmarks item;
 * links already saved (or met earlier in this batch) are skipped; the rest are created in one
 * transaction. A batch the repository refuses is retried one by one so a single bad entry fails alone.
 */
async function importBatch(
  repos: Repositories,
  creation: BookmarkCreation,
  batch: Entry[],
  folderIds: Map<string, number>,
  who: { userId: number; ownerId: number; unsorted: boolean },
  failures: string[],
): Promise<{ created: number; duplicates: number; failed: number }> {
  let failed = 0;
  const items: PreparedBookmark[] = [];
  const access = new Map<number, CollectionAccess>();
  for (const entry of batch) {
    const collectionId = who.unsorted ? UNSORTED : folderIds.get(entry.folder)!;
    const body = toBody(entry.bookmark, collectionId);
    try {
      if (!checkBody(body)) throw new Error(describeSchemaError());
      items.push(await creation.prepare(who.userId, body, '', access));
    } catch (err) {
      failed++;
      failures.push(`${entry.bookmark.link.slice(0, 200)}: ${(err as Error).message}`);
    }
  }
  const saved = new Set((await repos.bookmarks.findSavedByKeys(who.ownerId, items.map((i) => i.item.linkKey))).map((s) => s.linkKey));
  const fresh: PreparedBookmark[] = [];
  let duplicates = 0;
  for (const prepared of items) {
    if (saved.has(prepared.item.linkKey)) {
      duplicates++;
      continue;
    }
    saved.add(prepared.item.linkKey);
    fresh.push(prepared);
  }
  let created = 0;
  if (fresh.length) {
    try {
      created = (await creation.save(fresh)).length;
    } catch {
      for (const prepared of fresh) {
        try {
          created += (await creation.save([prepared])).length;
        } catch (err) {
          failed++;
          failures.push(`${prepared.item.link.slice(0, 200)}: ${(err as Error).message}`);
        }
      }
    }
  }
  return { created, duplicates, failed };
}
