import { Readable } from 'node:stream';
import type { BookmarkExportRepository } from '../../repositories/index.js';
import type { BookmarkScope } from '../../repositories/index.js';
import { csv } from './csv.js';
import { markdown } from './markdown.js';
import { netscapeHtml } from './netscape-html.js';
import { walkExport } from './walk.js';

export const EXPORT_FORMATS = ['html', 'csv', 'md'] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  html: 'text/html; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
};

/** The export of `scope` (narrowed by `search`) in `format`, as a stream of UTF-8 text. */
export function exportStream(
  repo: BookmarkExportRepository,
  scope: BookmarkScope,
  opts: { format: ExportFormat; search?: string; title: string },
): Readable {
  const events = walkExport(repo, scope, opts.search);
  const text =
    opts.format === 'html' ? netscapeHtml(events, opts.title) : opts.format === 'csv' ? csv(events) : markdown(events, opts.title);
  return Readable.from(text, { objectMode: false, highWaterMark: 64 * 1024 });
}
