// Reading one named file part (plus a few text fields) from a multipart/form-data request, with
// a size limit, for the upload routes. Errors become envelopes that say what to send instead.
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { ApiError, badRequest } from '../../errors.js';
import type { FileStorage, StagedFile } from '../../services/files/storage.js';

interface UploadedPart<T> {
  /** the file name the client sent ('' when none) */
  filename: string;
  /** the Content-Type the client claimed (not trusted) */
  mimetype: string;
  content: T;
}

interface MultipartRead<T> {
  file: UploadedPart<T>;
  fields: Record<string, string>;
}

const MAX_FIELD_BYTES = 1024;

/** "10 MB" style size for messages. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;
  if (n >= 1024) return `${Math.round((n / 1024) * 10) / 10} KB`;
  return `${n} bytes`;
}

const tooLarge = (what: string, limit: number) =>
  new ApiError(413, `The ${what} is larger than the limit of ${formatBytes(limit)}. Send a smaller file.`);

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function drain(stream: Readable): Promise<void> {
  for await (const _chunk of stream) {
    /* discard */
  }
}

/**
 * Reads the multipart body: the file in part `partName` (kept in memory, or staged to a temporary
 * file when a FileStorage is given) and the text fields named in `fieldNames`. Other parts are read
 * and dropped. 400 when the request is not multipart or has no such part, 413 past `maxBytes`.
 */
export async function readMultipart<T extends Buffer | StagedFile>(
  request: FastifyRequest,
  options: { partName: string; what: string; maxBytes: number; fieldNames?: string[]; stageTo?: FileStorage },
): Promise<MultipartRead<T>> {
  const { partName, what, maxBytes } = options;
  const send = `Send it as multipart/form-data with the file in a part named "${partName}".`;
  if (!request.isMultipart()) throw badRequest(`This upload needs a ${what}. ${send}`);

  const fields: Record<string, string> = {};
  let found: UploadedPart<T> | null = null;
  let staged: StagedFile | null = null;
  try {
    // throwFileSizeLimit (read by the plugin, missing from its types): we check `truncated` ourselves.
    const parts = request.parts({
      limits: { fileSize: maxBytes, files: 5, fields: 20, parts: 30, fieldSize: MAX_FIELD_BYTES },
      throwFileSizeLimit: false,
    } as Parameters<FastifyRequest['parts']>[0]);
    for await (const part of parts) {
      if (part.type === 'field') {
        if (options.fieldNames?.includes(part.fieldname) && typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== partName || found) {
        await drain(part.file);
        continue;
      }
      let content: T;
      if (options.stageTo) {
        staged = await options.stageTo.stage(part.file);
        content = staged as T;
      } else {
        content = (await collect(part.file)) as T;
      }
      if (part.file.truncated) throw tooLarge(what, maxBytes);
      found = { filename: part.filename ?? '', mimetype: part.mimetype ?? '', content };
    }
  } catch (error) {
    if (staged) await options.stageTo!.discard(staged.tmp);
    if (error instanceof ApiError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(what, maxBytes);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new ApiError(413, `The upload has too many parts. ${send}`);
    }
    throw badRequest(`The upload could not be read (${(error as Error).message}). ${send}`);
  }
  if (!found) throw badRequest(`No ${what} in the upload. ${send}`);
  return { file: found, fields };
}
