import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../../errors.js';
import { contentDisposition } from '../../services/files/names.js';
import { servedInline } from '../../services/files/sniff.js';
import { fileContext, secureFileHeaders } from './context.js';

// Nothing in a stored file may run: no scripts, no plugins, no forms, and a sandboxed origin.
// PDFs are sandboxed too: Chromium's own viewer still shows a top-level sandboxed PDF.
const FILE_CSP = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";
const PDF_CSP = "sandbox; default-src 'none'; object-src 'self'; plugin-types application/pdf";

const FileParams = Type.Object({
  fileId: Type.String({ pattern: '^[0-9a-f]{32}$', description: 'the id in the file URL' }),
  name: Type.String({ maxLength: 1024, description: 'the file name (for the browser; not checked)' }),
});

/** GET /files/{fileId}/{name}: an uploaded file or cover, to whoever may see its bookmark or collection. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { files, store } = fileContext(app);

  app.get(
    '/files/:fileId/:name',
    {
      config: { auth: 'optional' },
      schema: {
        tags: ['Files'],
        summary: 'An uploaded file or cover, served with its real type to users who may see its bookmark or collection',
        description:
          'Readable without a token only when its collection is public. Anything a browser could run is served as a download.',
        params: FileParams,
      },
    },
    async (request, reply) => {
      const row = await files.get(request.params.fileId);
      if (!row) throw notFound();
      if (row.bookmark_id !== null) await app.permissions.requireBookmark(request.userId, row.bookmark_id, 'read');
      else if (row.collection_id !== null) await app.permissions.requireCollection(request.userId, row.collection_id, 'read');
      else throw notFound(); // an upload still being attached to its bookmark
      const etag = `"${row.sha256}"`;
      reply.header('etag', etag);
      reply.header('cache-control', 'private, max-age=3600');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      const stream = await store.open(row.path);
      if (!stream) throw notFound('The file is missing from storage. Upload it again.');
      const inline = servedInline(row.mime);
      const text = row.mime.startsWith('text/') || row.mime === 'application/json' || row.mime.endsWith('+xml') || row.mime.endsWith('/xml');
      secureFileHeaders(reply, {
        contentType: `${row.mime}${text ? '; charset=utf-8' : ''}`,
        disposition: contentDisposition(inline ? 'inline' : 'attachment', row.name),
        csp: row.mime === 'application/pdf' ? PDF_CSP : FILE_CSP,
      });
      reply.header('content-length', String(row.size));
      return reply.send(stream);
    },
  );
};
export default routes;
