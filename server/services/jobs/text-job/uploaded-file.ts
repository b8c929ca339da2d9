import type { FilesRepository } from '../../../repositories/index.js';
import type { FileStorage } from '../../files/storage.js';
import { binaryFailure, type TextFailure } from './failure-reason.js';
import type { FetchedDocument } from './polite-fetch.js';

// A bookmark made by uploading a file (PUT /bookmark/file) has its text in that file, not behind
// its link: a PDF or a text file is read from the file storage, anything else has no text.

export type UploadedFileResult = { ok: true; document: FetchedDocument } | { ok: false; failure: TextFailure } | null;

/** The bookmark's uploaded file as a document to extract; null when the bookmark has no uploaded file. */
export async function uploadedFile(files: FilesRepository, store: FileStorage, bookmarkId: number, maxBytes: number): Promise<UploadedFileResult> {
  const [file] = await files.ofBookmark(bookmarkId, 'file');
  if (!file) return null;
  const kind = file.mime === 'application/pdf' ? 'pdf' : file.mime.startsWith('text/') || file.mime === 'application/json' ? 'plain' : null;
  if (!kind) return { ok: false, failure: binaryFailure(file.mime) };
  if (file.size > maxBytes) {
    return { ok: false, failure: { status: 'failed', reason: `the file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB, the most the server reads for its text`, retry: false } };
  }
  const stream = await store.open(file.path);
  if (!stream) return { ok: false, failure: { status: 'failed', reason: 'the uploaded file is missing from the file storage', retry: true } };
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { ok: true, document: { kind, bytes: Buffer.concat(chunks), contentType: file.mime, finalUrl: `file:///${encodeURIComponent(file.name)}`, truncated: false } };
}
