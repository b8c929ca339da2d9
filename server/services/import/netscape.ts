import { Parser } from 'htmlparser2';
import { NestingGuard, tooDeepMessage } from '../parse/nesting-depth.js';
import { epochToIso, splitTagList, type ImportBuilder } from './import-builder.js';
import { ImportFormatError, type ImportBookmark, type ImportFolder } from './types.js';

const DEFAULT_ROOT_TITLE = 'Imported bookmarks';

/**
 * Reads a Netscape bookmark file (the HTML that Chrome, Firefox, Safari and Edge export) into the
 * builder. Folders are `<DT><H3>name</H3>` followed by a `<DL>` holding their entries; bookmarks
 * are `<DT><A HREF ADD_DATE LAST_MODIFIED TAGS>title</A>`, optionally followed by `<DD>` text.
 * Bookmarks lying directly in the outermost list go into one top-level folder named after the
 * file's `<H1>` (Firefox's "Bookmarks Menu"), except those a Tidemark export wrote there (its
 * Unsorted or Trash): they go into the top-level folder flagged `unsorted`, so they come back in
 * Unsorted. In a file mixing both, each bookmark goes its own way.
 *
 * Streams over the parser's events rather than building a document tree, so 50 MB files stay
 * cheap in time and memory.
 */
export function readNetscape(text: string, builder: ImportBuilder): void {
  /** one entry per open <DL>: the folder it belongs to, or null for the outermost level */
  const lists: (ImportFolder | null)[] = [];
  let rootFolder: ImportFolder | null = null;
  let rootTitle = '';
  let h1Seen = false;
  let inH1 = false;

  let folderTitle: string | null = null; // collecting an <H3>
  let folderAwaitingList: ImportFolder | null = null; // an <H3> whose <DL> may follow
  let anchor: { attribs: Record<string, string>; text: string } | null = null;
  let lastBookmark: ImportBookmark | null = null; // target of a following <DD>
  let description: { bookmark: ImportBookmark; text: string; isNote: boolean } | null = null;
  /** Bookmarks from a Tidemark export (they carry DATA-EXCERPT): their <DD> is the note, <BR> a line break. */
  const noteInDd = new WeakSet<ImportBookmark>();

  const currentFolder = (): ImportFolder | null => (lists.length ? lists[lists.length - 1]! : null);

  const looseBookmarksFolder = (): ImportFolder => {
    rootFolder ??= builder.addFolder(rootTitle || DEFAULT_ROOT_TITLE, undefined, true);
    return rootFolder;
  };

  const endDescription = () => {
    if (!description) return;
    if (description.isNote) {
      // Raw line breaks are only the file's own layout; <BR> (marked U+2028 above) are the note's.
      const note = description.text.replace(/[\r\n]+[ \t]*/g, ' ').replace(/\u2028/g, '\n').trim();
      if (note) description.bookmark.note = note;
      description = null;
      return;
    }
    const excerpt = description.text.replace(/\s+/g, ' ').trim();
    if (excerpt) {
      description.bookmark.excerpt = description.bookmark.excerpt
        ? `${description.bookmark.excerpt} ${excerpt}`
        : excerpt;
    }
    description = null;
  };

  // Refused past the nesting limit as it streams: a deep file costs milliseconds, not minutes.
  const nesting = new NestingGuard(() => new ImportFormatError(tooDeepMessage('file')));
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        nesting.enter();
        switch (name) {
          case 'h1':
            if (!h1Seen) inH1 = true;
            break;
          case 'h3':
            endDescription();
            folderAwaitingList = null;
            lastBookmark = null;
            folderTitle = '';
            break;
          case 'dl':
            endDescription();
            if (folderAwaitingList) lists.push(folderAwaitingList);
            else lists.push(currentFolder());
            folderAwaitingList = null;
            lastBookmark = null;
            break;
          case 'a':
            endDescription();
            folderAwaitingList = null;
            lastBookmark = null;
            if ('href' in attribs) anchor = { attribs, text: '' };
            break;
          case 'dt':
            endDescription();
            lastBookmark = null;
            break;
          case 'dd':
            endDescription();
            if (lastBookmark) description = { bookmark: lastBookmark, text: '', isNote: noteInDd.has(lastBookmark) };
            break;
          case 'br':
            if (description?.isNote) description.text += '\u2028';
            break;
          default:
            break;
        }
      },
      ontext(data) {
        if (anchor) anchor.text += data;
        else if (folderTitle !== null) folderTitle += data;
        else if (description) description.text += data;
        else if (inH1) rootTitle += data;
      },
      onclosetag(name) {
        nesting.leave();
        switch (name) {
          case 'h1':
            if (inH1) {
              inH1 = false;
              h1Seen = true;
            }
            break;
          case 'h3':
            if (folderTitle !== null) {
              const parent = currentFolder();
              folderAwaitingList = builder.addFolder(folderTitle, parent ?? undefined);
              folderTitle = null;
            }
            break;
          case 'a':
            if (anchor) {
              const { attribs, text } = anchor;
              anchor = null;
              // A loose bookmark is Tidemark's (was in Unsorted or Trash) when it carries DATA-EXCERPT:
              // every Tidemark html export writes it on every bookmark (empty when there is no
              // excerpt), browsers never write it and drop it when they re-export the file. So it
              // needs no extra marker, files exported before this rule round-trip too, and it is
              // decided per bookmark (a browser bookmark pasted into a Tidemark export stays loose).
              const folder =
                currentFolder() ?? ('data-excerpt' in attribs ? builder.unsortedFolder() : looseBookmarksFolder());
              lastBookmark = builder.addBookmark(folder, {
                link: attribs.href ?? '',
                title: text,
                tags: splitTagList(attribs.tags),
                created: epochToIso(attribs.add_date),
                lastUpdate: epochToIso(attribs.last_modified),
                ...('data-excerpt' in attribs ? { excerpt: attribs['data-excerpt'] } : {}),
                ...(attribs['data-favourite'] === '1' ? { important: true } : {}),
              });
              if (lastBookmark && 'data-excerpt' in attribs) noteInDd.add(lastBookmark);
            }
            break;
          case 'dd':
            endDescription();
            break;
          case 'dl':
            endDescription();
            lists.pop();
            folderAwaitingList = null;
            lastBookmark = null;
            break;
          default:
            break;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(text);
  parser.end();
  endDescription();
}
