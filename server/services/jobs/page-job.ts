import { SCREENSHOT_COVER } from '../../../lib/api/constants.js';
import type { Media } from '../../../lib/api/types.js';
import type { FilesRepository } from '../../repositories/index.js';
import type { JobsRepository, PageFill, PageJobPayload } from '../../repositories/index.js';
import type { UsersRepository } from '../../repositories/index.js';
import { storePageCopy } from '../files/page-copies.js';
import type { FileStorage } from '../files/storage.js';
import { ParseRefused, type ParsePool } from '../parse-pool/index.js';
import { readPage, type ParsedPageItem } from '../parse/index.js';

/** How a job ended: done (with a note for the record), or failed with a reason and whether retrying can help. */
export type JobOutcome = { ok: true; note?: string } | { ok: false; error: string; retry: boolean };

interface PageJobDeps {
  jobs: JobsRepository;
  files: FilesRepository;
  users: UsersRepository;
  store: FileStorage;
  parsePool: ParsePool;
  allowPrivateNetwork: boolean;
  timeoutMs: number;
}

/** Failures a later try may not have: the site was slow, down or overloaded. */
const TRANSIENT = new Set(['timeout', 'dns_failure', 'connection_failed', 'tls_failure', 'bad_response', 'aborted']);

/** A permanent copy the parse pool refused: too deep or too big stays so; too slow (its images, its stylesheets) may pass later. */
function refusedCopy(error: ParseRefused): JobOutcome {
  return { ok: false, error: `${error.code}: ${error.message}`, retry: error.code === 'too_slow' || error.code === 'cancelled' || error.code === 'closed' };
}

function retryable(code: string): boolean {
  if (TRANSIENT.has(code)) return true;
  const status = /^url_status_(\d{3})$/.exec(code);
  if (!status) return false;
  const n = Number(status[1]);
  return n >= 500 || n === 408 || n === 425 || n === 429;
}

/** The parse answer as fields to fill: the first image becomes the cover, media keeps real links only. */
function pageFill(item: ParsedPageItem): PageFill {
  const media: Media[] = item.media.filter((m) => m.link !== SCREENSHOT_COVER).map((m) => ({ type: m.type, link: m.link }));
  const cover = media.find((m) => m.type === 'image')?.link;
  return {
    title: item.title || undefined,
    excerpt: item.excerpt || undefined,
    type: item.type,
    cover,
    media,
  };
}

/** An uploaded file's own address: `<origin>/rest/v1/files/<file id>/<name>` (routes/files/context.ts). */
const UPLOADED_FILE_PATH = /\/rest\/v1\/files\/([^/]+)\/[^/]*$/;

/**
 * The bookmark stands for an uploaded file. The upload route attaches the file just after creating
 * the bookmark, and this job can start in between: then the file is found by the id in its address.
 */
async function isUploadedFile(files: PageJobDeps['files'], bookmark: { id: number; link: string }): Promise<boolean> {
  if ((await files.ofBookmark(bookmark.id, 'file')).length > 0) return true;
  let path: string;
  try {
    path = new URL(bookmark.link).pathname;
  } catch {
    return false;
  }
  const id = UPLOADED_FILE_PATH.exec(path)?.[1];
  if (!id) return false;
  const row = await files.get(decodeURIComponent(id));
  return row?.kind === 'file' && (row.bookmark_id === null || row.bookmark_id === bookmark.id);
}

/**
 * A 'page' job: read the bookmark's page once; with `parse` (pleaseParse) fill the fields its
 * owner left empty, and for a pro owner keep a sanitised permanent copy (unless the extension
 * uploaded one, which sees what the person saw and wins).
 */
export async function runPageJob(deps: PageJobDeps, payload: PageJobPayload, signal: AbortSignal): Promise<JobOutcome> {
  const bookmark = await deps.jobs.bookmark(payload.bookmarkId);
  if (!bookmark) return { ok: true, note: 'the bookmark was removed before its page was read' };
  if (await isUploadedFile(deps.files, bookmark)) {
    return { ok: true, note: 'an uploaded file: there is no page to read' };
  }
  const owner = await deps.users.byId(bookmark.user_id);
  const existing = await deps.files.cacheOf(bookmark.id);
  const wantCopy = !!owner?.pro && existing?.source !== 'upload';
  if (!payload.parse && !wantCopy) return { ok: true, note: 'nothing to do: no parse asked and no permanent copy needed' };

  const ownerId = bookmark.user_id;
  const fetchOptions = { allowPrivateNetwork: deps.allowPrivateNetwork, timeoutMs: deps.timeoutMs };
  const reading = await readPage(bookmark.link, {
    ...fetchOptions,
    signal,
    extract: (html, url, contentType) => deps.parsePool.run(ownerId, 'page-metadata', { html, url, contentType }, { signal }),
  });
  const { result } = reading;
  if (result.error) {
    const code = result.errorMessage ?? 'failed';
    if (code === 'url_status_404' || code === 'url_status_410') await deps.jobs.setBroken(bookmark.id, true);
    return { ok: false, error: `${code}: ${result.detail ?? 'the page could not be read'}`, retry: retryable(code) };
  }
  if (bookmark.broken) await deps.jobs.setBroken(bookmark.id, false);

  const notes: string[] = [];
  if (payload.parse) {
    const written = await deps.jobs.fillFromPage(bookmark.id, pageFill(result.item));
    notes.push(written.length ? `filled ${written.join(', ')}` : 'nothing to fill');
  }
  if (wantCopy) {
    if (reading.html && reading.page) {
      let html: string;
      try {
        // The copy's images and stylesheets are fetched from the worker, under the same address policy.
        html = await deps.parsePool.run(ownerId, 'archive-copy', { html: reading.html, baseUrl: reading.page.finalUrl, fetch: fetchOptions }, { signal });
      } catch (error) {
        if (error instanceof ParseRefused) return refusedCopy(error);
        throw error;
      }
      if (signal.aborted) return { ok: false, error: 'aborted: the runner stopped', retry: true };
      const saved = await storePageCopy(deps.store, deps.files, {
        bookmarkId: bookmark.id,
        userId: bookmark.user_id,
        html,
        pageUrl: reading.page.finalUrl,
        source: 'server',
      });
      notes.push(saved ? `stored a permanent copy (${saved.size} bytes)` : 'the bookmark was removed before its copy was stored');
    } else {
      notes.push(`no permanent copy: the page is not HTML (${reading.page?.contentType || 'unknown type'})`);
    }
  }
  return { ok: true, note: notes.join('; ') };
}
