import { Parser } from 'htmlparser2';

/**
 * Deepest element nesting any parser of untrusted markup is asked to build. Tree builders and the
 * code walking their trees (jsdom, DOMPurify, linkedom, Readability) recurse per level, and
 * htmlparser2's own open-element stack costs time per level on every tag, so a page nested tens of
 * thousands deep costs minutes or overflows the stack. Real pages stay far below this: browsers
 * themselves stop nesting at 512 levels (deeper elements become siblings).
 */
export const MAX_NESTING_DEPTH = 512;

/**
 * Deepest page Readability reads for an excerpt: its cost grows with the square of the depth
 * (about 1 s at 128 levels of bare <div>, 6 s at 512). Deeper pages take their first paragraph.
 */
export const MAX_ARTICLE_DEPTH = 128;

/** Said to people when a page or file is refused for its nesting. */
export function tooDeepMessage(what: string, limit = MAX_NESTING_DEPTH): string {
  return `The ${what} is nested too deeply to read (more than ${limit.toLocaleString('en')} levels).`;
}

class DepthExceeded extends Error {}

/**
 * Reads `markup` as a stream of tags, counting how deep elements nest (void elements and the
 * closes the HTML rules imply included, as the tree builders see them), and stops at the first
 * element past `limit`. Builds no tree and keeps at most `limit` open elements, so it costs the
 * same few milliseconds per 100 KB whatever the page is. Answers the deepest level seen, or null
 * when the markup goes past `limit`.
 */
export function nestingDepth(markup: string, limit = MAX_NESTING_DEPTH): number | null {
  let depth = 0;
  let deepest = 0;
  const parser = new Parser(
    {
      onopentag() {
        depth++;
        if (depth > deepest) deepest = depth;
        if (depth > limit) throw new DepthExceeded();
      },
      onclosetag() {
        depth--;
      },
    },
    { decodeEntities: false },
  );
  try {
    parser.write(markup);
    parser.end();
  } catch (error) {
    if (error instanceof DepthExceeded) return null;
    throw error;
  }
  return deepest;
}

/**
 * The same count for a reader that streams over a parser's events itself (the bookmark-file
 * readers): call `enter` on every opening tag and `leave` on every closing one; `enter` throws
 * `refuse()` past the limit, before the parser's own stack grows costly.
 */
export class NestingGuard {
  private depth = 0;
  constructor(
    private readonly refuse: () => Error,
    private readonly limit = MAX_NESTING_DEPTH,
  ) {}

  enter(): void {
    if (++this.depth > this.limit) throw this.refuse();
  }

  leave(): void {
    this.depth--;
  }
}
