import { LIMITS } from '../../../lib/api/constants.js';
import {
  ImportFormatError,
  type ConvertOptions,
  type ImportBookmark,
  type ImportFolder,
  type ImportLimits,
  type ImportResult,
} from './types.js';

const MAX_LINK_LENGTH = 8192;
const MAX_TAG_LENGTH = 200;
const MAX_TAGS = 500;
const DEFAULT_DUPLICATE_BATCH = 500;
/** The title of the folder flagged `unsorted` (what a client that ignores the flag would name its collection). */
const UNSORTED_TITLE = 'Unsorted';

/** What a format reader knows about one entry; the builder validates and fills the rest. */
interface BookmarkInput {
  link: string;
  title?: string;
  excerpt?: string;
  note?: string;
  tags?: readonly string[];
  created?: string | null;
  lastUpdate?: string | null;
  cover?: string;
  important?: boolean;
}

/**
 * Collects folders and bookmarks from a format reader into the import result, dropping links
 * that are not http(s) and keeping the counts.
 */
export class ImportBuilder {
  readonly items: ImportFolder[] = [];
  private readonly nowIso: string;
  private folderCount = 0;
  private bookmarkCount = 0;
  private skippedCount = 0;
  private readonly tagNames = new Set<string>();
  private readonly topByName = new Map<string, ImportFolder>();
  /** The top-level folder flagged `unsorted`, once asked for (see unsortedFolder). */
  private unsorted: ImportFolder | null = null;
  /** Nesting depth of every folder (1 = top level), to refuse files nested deeper than the limit. */
  private readonly depths = new WeakMap<ImportFolder, number>();
  private readonly limits: ImportLimits;

  constructor(now: Date = new Date(), limits: Partial<ImportLimits> = {}) {
    this.nowIso = now.toISOString();
    this.limits = { maxDepth: LIMITS.importFolderDepthMax, maxEntries: LIMITS.importEntriesMax, ...limits };
  }

  /** Refuses the file once it holds more bookmarks and folders than the limit (before they use up memory). */
  private countEntry(): void {
    if (this.folderCount + this.bookmarkCount + 1 > this.limits.maxEntries) {
      throw new ImportFormatError(
        `the file holds more than ${this.limits.maxEntries} bookmarks and folders, the most one import takes. Split it into smaller files (one per top folder, for example) and import them one by one.`,
      );
    }
  }

  /**
   * A new folder, nested in `parent` or at the top level. `first` puts a top-level folder before
   * the ones already added (used for the file's own root, which is only created once needed), but
   * after the folder flagged `unsorted`, which stays first.
   */
  addFolder(title: string, parent?: ImportFolder, first = false): ImportFolder {
    const depth = parent ? (this.depths.get(parent) ?? 1) + 1 : 1;
    if (depth > this.limits.maxDepth) {
      throw new ImportFormatError(
        `folders are nested more than ${this.limits.maxDepth} deep, deeper than any browser makes them; the file is damaged or was not made by a browser. Flatten the deepest folders and try again.`,
      );
    }
    this.countEntry();
    const folder: ImportFolder = {
      title: cleanText(title) || 'Untitled folder',
      folders: [],
      bookmarks: [],
    };
    const siblings = parent ? parent.folders : this.items;
    if (first) siblings.splice(!parent && this.unsorted ? 1 : 0, 0, folder);
    else siblings.push(folder);
    this.depths.set(folder, depth);
    this.folderCount++;
    return folder;
  }

  /** The top-level folder called `name`, created the first time it is asked for (export sections, CSV folder columns). */
  topFolder(name: string): ImportFolder {
    let folder = this.topByName.get(name);
    if (!folder) {
      folder = this.addFolder(name);
      this.topByName.set(name, folder);
    }
    return folder;
  }

  /**
   * The top-level folder flagged `unsorted: true` (bookmarks a Tidemark export wrote outside any
   * folder: they go back to Unsorted, see ImportedFolder), created first among the top-level
   * folders the first time it is asked for.
   */
  unsortedFolder(): ImportFolder {
    if (!this.unsorted) {
      const folder = this.addFolder(UNSORTED_TITLE, undefined, true);
      folder.unsorted = true;
      this.unsorted = folder;
    }
    return this.unsorted;
  }

  /** Adds the entry to `folder`; returns null (and counts it as skipped) when the link is not http(s). */
  addBookmark(folder: ImportFolder, input: BookmarkInput): ImportBookmark | null {
    const link = checkedLink(input.link);
    if (link === null) {
      this.skippedCount++;
      return null;
    }
    this.countEntry();
    const tags = cleanTags(input.tags ?? []);
    for (const tag of tags) this.tagNames.add(tag);
    const created = input.created ?? input.lastUpdate ?? this.nowIso;
    const bookmark: ImportBookmark = {
      link,
      title: cleanText(input.title ?? '') || link,
      excerpt: (input.excerpt ?? '').trim(),
      note: (input.note ?? '').trim(),
      tags,
      created,
      lastUpdate: input.lastUpdate ?? created,
      cover: input.cover ? (checkedLink(input.cover) ?? '') : '',
      media: [],
      important: input.important === true,
    };
    if (bookmark.cover) bookmark.media.push({ type: 'image', link: bookmark.cover });
    folder.bookmarks.push(bookmark);
    this.bookmarkCount++;
    return bookmark;
  }

  finish(options: ConvertOptions = {}): ImportResult {
    return {
      items: this.items,
      count: {
        bookmarks: this.bookmarkCount,
        folders: this.folderCount,
        tags: this.tagNames.size,
        highlights: 0,
        duplicates: options.isSaved
          ? countDuplicates(this.items, options.isSaved, options.duplicateBatchSize ?? DEFAULT_DUPLICATE_BATCH)
          : 0,
        skipped: this.skippedCount,
      },
    };
  }
}

/** Asks the caller in batches which links are saved already; counts every bookmark that is. */
function countDuplicates(
  items: ImportFolder[],
  isSaved: (links: string[]) => Set<string>,
  batchSize: number,
): number {
  const size = Math.max(1, Math.floor(batchSize));
  let batch: string[] = [];
  let duplicates = 0;
  const flush = () => {
    if (batch.length === 0) return;
    const saved = isSaved(batch);
    for (const link of batch) if (saved.has(link)) duplicates++;
    batch = [];
  };
  for (const folder of foldersInOrder(items)) {
    for (const bookmark of folder.bookmarks) {
      batch.push(bookmark.link);
      if (batch.length >= size) flush();
    }
  }
  flush();
  return duplicates;
}

/** Every folder, each before its children, in file order, without recursion (depth-first with an explicit stack). */
export function* foldersInOrder(items: readonly ImportFolder[]): Generator<ImportFolder> {
  const stack: ImportFolder[] = [...items].reverse();
  while (stack.length) {
    const folder = stack.pop()!;
    yield folder;
    for (let i = folder.folders.length - 1; i >= 0; i--) stack.push(folder.folders[i]!);
  }
}

/** The trimmed link when it is a well-formed http(s) URL, else null. */
function checkedLink(raw: string): string | null {
  const link = raw.trim();
  if (!link || link.length > MAX_LINK_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return null;
  return link;
}

function cleanText(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

function cleanTags(raw: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const value of raw) {
    const tag = cleanText(value).slice(0, MAX_TAG_LENGTH);
    if (!tag || seen.has(tag)) continue;
    seen.add(tag);
    out.push(tag);
    if (out.length >= MAX_TAGS) break;
  }
  return out;
}

/**
 * Epoch time from an export (Netscape and Pocket write seconds; some tools write milliseconds or
 * microseconds) as ISO 8601, or null when missing or nonsensical.
 */
export function epochToIso(value: string | undefined | null): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  if (!trimmed) return null;
  const n = Number(trimmed);
  if (!Number.isFinite(n) || n <= 0) return null;
  let ms: number;
  if (n >= 1e14) ms = n / 1000; // microseconds
  else if (n >= 1e11) ms = n; // milliseconds
  else ms = n * 1000; // seconds
  const date = new Date(Math.floor(ms));
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999) return null;
  return date.toISOString();
}

/** A comma-separated tag list ("a, b,c") as names. */
export function splitTagList(value: string | undefined, separators: readonly string[] = [',']): string[] {
  if (!value) return [];
  let parts = [value];
  for (const sep of separators) parts = parts.flatMap((part) => part.split(sep));
  return parts;
}
