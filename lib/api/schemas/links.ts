// The saved-link index (beyond the spec): GET /rest/v1/links. A compact list of the caller's saved
// (not removed) bookmarks for the extension's saved-page badge, and the changes since a cursor.
// The extension imports only the types (`import type`), so TypeBox stays out of its bundles.
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../constants.js';

/** One saved link: `[bookmark id, link key (normalizeUrl of the link), collection id]`. */
export const LinkEntry = Type.Tuple([Type.Integer(), Type.String(), Type.Integer()]);

export const LinksQuery = Type.Object({
  since: Type.Optional(
    Type.Integer({ minimum: 0, description: 'a cursor from an earlier answer: only changes after it (new, moved, relinked, renamed), with removed ids' }),
  ),
  after: Type.Optional(Type.Integer({ minimum: 0, description: 'full listing: only bookmarks with an id above this (paging)' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: LIMITS.linksPerAnswerMax, description: `entries per answer, default ${LIMITS.linksPerAnswerDefault}` }),
  ),
});

export const LinksResponse = Type.Object({
  result: Type.Literal(true),
  items: Type.Array(LinkEntry),
  /** Ids that left the index since the cursor (moved to Trash, deleted, moved to another owner). Only with `since`. */
  removed: Type.Optional(Type.Array(Type.Integer())),
  /** Pass as `since` next time. With paging, keep the cursor of the FIRST page of a full listing. */
  cursor: Type.Integer(),
  /** More entries follow: ask again with `after` (full listing: the last id) or `since` (this cursor). */
  more: Type.Boolean(),
  /**
   * The version of the keys in `items` (lib/api/url.ts URL_KEY_VERSION of the server). A client whose
   * own version differs cannot look its keys up in them. Absent from servers before it: version 1.
   */
  keyVersion: Type.Optional(Type.Integer({ minimum: 1 })),
});

