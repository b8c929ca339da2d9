// Plain constants shared by server and extension. No TypeBox here, so the extension can import
// them without pulling the schema library into its bundles.

/** System collection ids. */
export const ALL_COLLECTIONS = 0;
export const UNSORTED = -1;
export const TRASH = -99;
export const SYSTEM_COLLECTION_IDS = [ALL_COLLECTIONS, UNSORTED, TRASH] as const;

export const HIGHLIGHT_COLORS = [
  'blue', 'brown', 'cyan', 'gray', 'green', 'indigo',
  'orange', 'pink', 'purple', 'red', 'teal', 'yellow',
] as const;
export type HighlightColor = (typeof HIGHLIGHT_COLORS)[number];
export const DEFAULT_HIGHLIGHT_COLOR: HighlightColor = 'yellow';

export const BOOKMARK_TYPES = ['link', 'article', 'image', 'video', 'document', 'audio'] as const;
export type BookmarkType = (typeof BOOKMARK_TYPES)[number];

export const BOOKMARK_SORTS = [
  '-created', 'created', 'score', '-sort', 'sort', 'title', '-title', 'domain', '-domain', '-lastUpdate',
] as const;
export type BookmarkSort = (typeof BOOKMARK_SORTS)[number];
export const DEFAULT_BOOKMARK_SORT: BookmarkSort = '-created';

export const COLLECTION_SORTS = ['title', '-title', '-count'] as const;
export type CollectionSort = (typeof COLLECTION_SORTS)[number];

export const SHARE_ROLES = ['member', 'viewer'] as const;
export type ShareRole = (typeof SHARE_ROLES)[number];

/** Access levels reported in `collection.access.level`. */
export const ACCESS_LEVEL = { none: 0, public: 1, viewer: 2, member: 3, owner: 4 } as const;

export const LIMITS = {
  perPageDefault: 25,
  perPageMax: 50,
  bulkItemsMax: 100,
  idsMax: 100,
  shareEmailsMax: 10,
  pendingInvitationsMax: 100,
  /** GET /links: entries per answer when `limit` is not given, and the most one answer may hold. */
  linksPerAnswerDefault: 5000,
  linksPerAnswerMax: 20_000,
  accessTokenLifetimeSeconds: 1_209_599,
  /** POST/PUT /import/file and the import command: folders nested deeper than this are refused (400). */
  importFolderDepthMax: 100,
  /** POST/PUT /import/file and the import command: files with more bookmarks and folders than this are refused (400). */
  importEntriesMax: 500_000,
  /** Highest `page` a listing takes (zero-based); beyond it a 400, not a query that overflows. */
  pageMax: 1_000_000,
  /** Highest manual `order` of a bookmark. */
  orderMax: 1_000_000_000,
  /** Every JSON request body: arrays and objects nested deeper than this are refused (400). */
  jsonDepthMax: 64,
} as const;

/** The literal cover value that asks for a screenshot. */
/**
 * Most a client may send as a page's serialised HTML (PUT /bookmark/{id}/article), in UTF-8 bytes; longer is
 * refused with 413. Here rather than beside the article's schema so the extension can read it without TypeBox.
 */
export const ARTICLE_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

export const SCREENSHOT_COVER = '<screenshot>';
