import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Cache lifetimes: hashed file names never change content; everything else is checked on every use. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/**
 * The file a request path names inside the build directory, or null. Only plain names (letters,
 * digits, `.`, `_`, `-`; no leading dot, so no `..` and no hidden files) in at most a few
 * directories: nothing outside the build directory can be named.
 */
export function fileIn(root: string, relative: string): string | null {
  const parts = relative.split('/');
  if (parts.length > 4 || parts.some((p) => !/^[\w-][\w.-]{0,199}$/.test(p))) return null;
  return path.join(root, ...parts);
}

/** The built app's index.html, or null when there is no build. */
export function indexFile(root: string): string | null {
  const file = path.join(root, 'index.html');
  return fs.existsSync(file) ? file : null;
}

/**
 * Sends a file of the build with its type and cache lifetime, answering 304 to a revalidation
 * whose ETag still matches; a file that is not there is a 404 like any unknown address.
 */
export async function sendBuiltFile(request: FastifyRequest, reply: FastifyReply, file: string | null, cacheControl: string): Promise<FastifyReply> {
  const type = file ? TYPES[path.extname(file).toLowerCase()] : undefined;
  const stat = file && type ? await fs.promises.stat(file).catch(() => null) : null;
  if (!file || !type || !stat?.isFile()) {
    reply.callNotFound();
    return reply;
  }
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  reply.header('cache-control', cacheControl).header('etag', etag).header('last-modified', stat.mtime.toUTCString());
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.type(type).header('content-length', String(stat.size)).send(fs.createReadStream(file));
}
