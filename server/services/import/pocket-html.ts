import { Parser } from 'htmlparser2';
import { ImportFormatError } from './types.js';
import { NestingGuard, tooDeepMessage } from '../parse/nesting-depth.js';
import { epochToIso, splitTagList, type ImportBuilder } from './import-builder.js';

const DEFAULT_FOLDER = 'Pocket';

/**
 * Reads Pocket's HTML export: headings ("Unread", "Read Archive") each followed by a list of
 * `<a href time_added tags>title</a>`. Each heading becomes a top-level folder, created when its
 * first bookmark is met, so an empty section adds no folder.
 */
export function readPocketHtml(text: string, builder: ImportBuilder): void {
  let heading: string | null = null; // collecting heading text
  let section = DEFAULT_FOLDER;
  let anchor: { attribs: Record<string, string>; text: string } | null = null;


  // Refused past the nesting limit as it streams: a deep file costs milliseconds, not minutes.
  const nesting = new NestingGuard(() => new ImportFormatError(tooDeepMessage('file')));
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        nesting.enter();
        if (name === 'h1' || name === 'h2') heading = '';
        else if (name === 'a' && 'href' in attribs) anchor = { attribs, text: '' };
      },
      ontext(data) {
        if (anchor) anchor.text += data;
        else if (heading !== null) heading += data;
      },
      onclosetag(name) {
        nesting.leave();
        if ((name === 'h1' || name === 'h2') && heading !== null) {
          section = heading.replace(/\s+/g, ' ').trim() || DEFAULT_FOLDER;
          heading = null;
        } else if (name === 'a' && anchor) {
          const { attribs, text } = anchor;
          anchor = null;
          builder.addBookmark(builder.topFolder(section), {
            link: attribs.href ?? '',
            title: text,
            tags: splitTagList(attribs.tags),
            created: epochToIso(attribs.time_added),
          });
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(text);
  parser.end();
}
