import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import type { FilesRepository, QuotaExceededError, FileRow } from '../../repositories/index.js';
import type { FileStorage } from '../../services/files/storage.js';
import { formatBytes } from './multipart.js';

/** What the upload and file routes share: the file rows, the file storage, and the served URL of a file. */
interface FileContext {
  files: FilesRepository;
  store: FileStorage;
  /** The absolute URL a stored file is served under: <origin>/rest/v1/files/<id>/<name>. */
  fileUrl(request: FastifyRequest, row: Pick<FileRow, 'id' | 'name'>): string;
}

export function fileContext(app: FastifyInstance): FileContext {
  const { files } = app.repos;
  const store = app.services.files;
  // `app.prefix` is where the API is mounted (/rest/v1) as seen from inside this plugin.
  const prefix = app.prefix;
  return {
    files,
    store,
    fileUrl(request, row) {
      const origin = app.config.publicUrl?.replace(/\/+$/, '') ?? listeningOrigin(request);
      return `${origin}${prefix}/files/${row.id}/${encodeURIComponent(row.name)}`;
    },
  };
}

/**
 * Without a configured public URL, links are built from the address the connection arrived at,
 * never from the Host header: a client can name any host there, and the link is stored and shown
 * to others. Behind a proxy or under a domain name, set the public URL.
 */
function listeningOrigin(request: FastifyRequest): string {
  const socket = request.raw.socket;
  const address = (socket.localAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.)/, '');
  const host = address.includes(':') ? `[${address}]` : address;
  const scheme = (socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  return `${scheme}://${host}:${socket.localPort}`;
}

/** The envelope for an upload that does not fit the owner's storage. */
export function quotaError(error: QuotaExceededError): ApiError {
  return new ApiError(
    403,
    `Not enough file storage: ${formatBytes(error.used)} of ${formatBytes(error.quota)} used, and this file needs ` +
      `${formatBytes(error.needed)}. Remove some uploaded files or covers, or upgrade to Pro for more space.`,
    { error: 'quota_exceeded' },
  );
}

/**
 * Headers every stored file and permanent copy is served with: the type we determined (never
 * sniffed by the browser), a download name that cannot break the header, and a policy that keeps
 * anything in it from running on our origin.
 */
export function secureFileHeaders(reply: FastifyReply, headers: { contentType: string; disposition: string; csp: string }): void {
  reply.header('content-type', headers.contentType);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('content-disposition', headers.disposition);
  reply.header('content-security-policy', headers.csp);
  reply.header('referrer-policy', 'no-referrer');
}
