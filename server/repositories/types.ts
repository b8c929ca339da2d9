// The repository contract: the records, inputs and errors every database backend's repositories
// use, and the interface of each repository. Routes, services, plugins and commands see only these
// (through \`app.repos\`); the implementations live in ./sqlite (and ./postgres). Field names follow
// the stored columns; flags are 0/1 numbers and list-valued columns JSON text, the same on every backend.
import type {
  Bookmark,
  HighlightListItem,
  LinkEntry,
  Tag,
  TagSuggestion,
  UserGroup,
  Collection,
  CollectionUpdate,
  HighlightChange,
  Media,
  PublicUser,
  User,
  UserConfig,
} from '../../lib/api/types.js';
import { DEFAULT_BOOKMARK_SORT, TRASH, UNSORTED, type CollectionSort, type BookmarkType, type HighlightColor, type ShareRole } from '../../lib/api/constants.js';
import { md5 } from '../services/secrets.js';

export interface CollectionOwnerRow {
  id: number;
  user_id: number;
  parent_id: number | null;
  public: number;
}

/**
 * Which bookmarks a read looks at.
 * - `user`: every bookmark of `userId` (Trash only when `includeTrash`), plus the bookmarks of
 *   `sharedCollectionIds` (other users' collections shared with the caller);
 * - `system`: the caller's Unsorted (-1) or Trash (-99);
 * - `collections`: the bookmarks of these collections, whoever owns them (access checked by the route).
 */
export type BookmarkScope =
  | { kind: 'user'; userId: number; includeTrash: boolean; sharedCollectionIds?: number[] }
  | { kind: 'system'; userId: number; collectionId: typeof UNSORTED | typeof TRASH }
  | { kind: 'collections'; collectionIds: number[] };

export interface ListOptions {
  search?: string;
  /** One of BOOKMARK_SORTS; anything else (or `score` without a search) sorts by `-created`. */
  sort?: string;
  page: number;
  perpage: number;
}

/** A highlight to add: text is already checked to be non-blank. */
export interface NewHighlight {
  text: string;
  note?: string;
  color?: HighlightColor;
  position?: number;
  prefix?: string;
  suffix?: string;
}

/** A bookmark to insert, already validated and normalised by the caller (services/bookmarks/input.ts). */
export interface NewBookmark {
  /** Whose data it is: the owner of the target collection. */
  ownerId: number;
  /** Who created it (the caller). */
  creatorId: number;
  collectionId: number;
  link: string;
  linkKey: string;
  domain: string;
  title: string;
  excerpt: string;
  note: string;
  type: BookmarkType;
  cover: string;
  media: Media[];
  tags: string[];
  important: boolean;
  /** Position in the collection (ascending, 0 = first). Without it the bookmark goes first. */
  order?: number;
  created?: string;
  lastUpdate?: string;
  highlights: NewHighlight[];
  /**
   * `pleaseParse` was asked: the page parse is queued in the insert's own transaction, so it joins the
   * permanent-copy job the insert may queue before any job runner can take that job.
   */
  pleaseParse?: boolean;
}

/** Changes to one bookmark (PUT /bookmark/{id}); absent fields stay as they are. */
export interface BookmarkChanges {
  link?: { link: string; linkKey: string; domain: string };
  title?: string;
  excerpt?: string;
  note?: string;
  type?: BookmarkType;
  cover?: string;
  media?: Media[];
  /** Replaces all tags. */
  tags?: string[];
  important?: boolean;
  created?: string;
  /** Move into another collection (whose owner becomes the bookmark's owner). */
  move?: { collectionId: number; ownerId: number };
  /** Position in the (target) collection, ascending, 0 = first. */
  order?: number;
  /** Add / update / remove, applied in the order sent; `highlights.N` names entries in errors. */
  highlights?: HighlightChange[];
}

/** Changes applied to many bookmarks at once (PUT /bookmarks/{collectionId}). */
export interface BulkChanges {
  important?: boolean;
  /** Appended to each bookmark's tags; `[]` removes all tags. */
  tags?: string[];
  /** Appended to each bookmark's media; `[]` removes all media. */
  media?: Media[];
  cover?: string;
  move?: { collectionId: number; ownerId: number };
}

/** Which bookmarks a bulk operation acts on: one collection of one owner, narrowed by ids and a search expression. */
export interface BulkScope {
  ownerId: number;
  collectionId: number;
  ids?: number[];
  /** A `search` expression (the search language of observed-behaviour.md); compiled here. */
  search?: string;
}

/** A saved bookmark whose link matched a duplicate check. */
export interface SavedLink {
  _id: number;
  link: string;
  linkKey: string;
}

/** A `collections` row plus `count`, the number of bookmarks directly in it (never cached). */
export interface CollectionRow {
  id: number;
  user_id: number;
  parent_id: number | null;
  title: string;
  view: string;
  sort: number;
  public: number;
  expanded: number;
  color: string | null;
  cover: string;
  created: string;
  last_update: string;
  count: number;
}

/** What the caller may do with a collection, as reported in `collection.access`. */
export type CollectionAccessView = Collection['access'];

export function toCollection(row: CollectionRow, access: CollectionAccessView): Collection {
  const item: Collection = {
    _id: row.id,
    access: { level: access.level, draggable: access.draggable },
    count: row.count,
    cover: JSON.parse(row.cover) as string[],
    created: row.created,
    expanded: !!row.expanded,
    lastUpdate: row.last_update,
    public: !!row.public,
    sort: row.sort,
    title: row.title,
    user: { $id: row.user_id },
    view: row.view,
  };
  if (row.color !== null) item.color = row.color;
  if (row.parent_id !== null) item.parent = { $id: row.parent_id };
  return item;
}

/** Thrown when a move would put a collection inside itself or one of its descendants. */
export class CollectionCycleError extends Error {
  constructor() {
    super('cannot move a collection into itself or one of its descendants');
  }
}

/** The stored settings of a collection a write may set (its place in the tree is set apart). */
export type CollectionFields = Omit<CollectionUpdate, 'parent'>;

/** A `files` row: an uploaded file or cover. `path` is relative to <dataDir>/files/. */
export interface FileRow {
  id: string;
  user_id: number;
  kind: 'file' | 'cover';
  bookmark_id: number | null;
  collection_id: number | null;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  path: string;
  created: string;
}

/** A `bookmark_caches` row: the permanent copy of a bookmark's page. */
export interface CacheRow {
  bookmark_id: number;
  user_id: number;
  source: 'server' | 'upload';
  size: number;
  sha256: string;
  path: string;
  page_url: string;
  created: string;
}

export interface NewFile {
  id: string;
  userId: number;
  kind: FileRow['kind'];
  bookmarkId?: number | null;
  collectionId?: number | null;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  path: string;
}

/** The upload does not fit in the owner's storage. */
export class QuotaExceededError extends Error {
  constructor(
    readonly used: number,
    readonly quota: number,
    readonly needed: number,
  ) {
    super('file storage quota exceeded');
  }
}

/** What to do with a request that carries an Idempotency-Key. */
export type IdempotencyStart =
  | { kind: 'run' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'in-progress' }
  | { kind: 'mismatch' };

/** An `import_runs` row: how far the import command got with one file. */
export interface ImportRunRow {
  id: number;
  user_id: number;
  file_sha256: string;
  file_name: string;
  target: number;
  state: 'running' | 'done';
  next_index: number;
  total: number;
  created_count: number;
  duplicates: number;
  failed: number;
  started_at: string;
  updated_at: string;
}

export interface ImportTally {
  created: number;
  duplicates: number;
  failed: number;
}

/** A `jobs` row. */
export interface JobRow {
  id: number;
  kind: string;
  payload: string;
  dedupe_key: string | null;
  state: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  next_run_at: number;
  locked_until: number | null;
  last_error: string | null;
  outcome: string | null;
  created_at: number;
  finished_at: number | null;
}

/** Payload of a 'page' job. */
export interface PageJobPayload {
  bookmarkId: number;
  /** fill empty fields from the page (pleaseParse); without it only the permanent copy is made */
  parse: boolean;
  on: 'create' | 'update';
}

/** What a page reading found, to fill in where the bookmark still has its default. */
export interface PageFill {
  title?: string;
  excerpt?: string;
  type?: string;
  cover?: string;
  media?: Media[];
}

export type ClientKind = 'confidential' | 'public';

export type ClientStatus = 'active' | 'suspended';

export interface OAuthClientRow {
  id: number;
  client_id: string;
  owner_id: number | null;
  name: string;
  kind: ClientKind;
  secret_hash: string | null;
  status: ClientStatus;
  max_tokens: number | null;
  created_at: number;
  updated_at: number;
}

/** A registered application with its exact redirect URIs, in the order they were given. */
export interface OAuthClient extends OAuthClientRow {
  redirect_uris: string[];
}

export class DuplicateClientIdError extends Error {
  constructor(clientId: string) {
    super(`An application with the client id ${clientId} already exists.`);
  }
}

export interface OAuthCodeRow {
  id: number;
  code_hash: string;
  client_pk: number;
  user_id: number;
  redirect_uri: string;
  code_challenge: string | null;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface ConnectionRow {
  user_id: number;
  provider: string;
  account_id: string;
  connected_at: number;
}

export interface RefreshTokenRow {
  id: number;
  grant_id: number;
  token_hash: string;
  access_token_id: number | null;
  created_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
}

/** A freshly issued pair; the secrets exist only here. */
export interface IssuedPair {
  accessToken: string;
  refreshToken: string;
  accessTokenId: number;
  issuedAt: number;
  expiresAt: number;
  grantId: number;
}

/** An app the user has authorized, for the "authorized apps" list. */
export interface AuthorizedApp {
  client_pk: number;
  client_id: string;
  name: string;
  owner_id: number | null;
  first_authorized: number;
  grants: number;
}

export interface SessionRow {
  id: number;
  token_hash: string;
  user_id: number;
  user_agent: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** A user with a role on a collection, as stored (with the user's public details). */
export interface CollaboratorRow {
  user_id: number;
  email: string;
  full_name: string;
  role: ShareRole;
  /** The collection whose share gives the role (the collection itself or an ancestor). */
  collection_id: number;
  joined_at: number;
}

export interface InvitationRow {
  id: number;
  collection_id: number;
  email: string;
  role: ShareRole;
  invited_by: number;
  token_hash: string;
  created_at: number;
  expires_at: number;
  sent_at: number | null;
  send_attempts: number;
  last_error: string | null;
  accepted_at: number | null;
  accepted_by: number | null;
}

/** An invitation together with the secret of its join link (known only right after it is made). */
export interface IssuedInvitation {
  invitation: InvitationRow;
  token: string;
  /** False when an open invitation for the address existed and was renewed (a resend). */
  created: boolean;
}

/** Invitations to issue in one call (SharingRepository.invite). */
export interface NewInvitations {
  collectionId: number;
  inviterId: number;
  role: ShareRole;
  emails: string[];
  ttlMs: number;
  maxPending: number;
}

/** Thrown inside the invite transaction: the inviter would hold more open invitations than allowed. */
export class PendingLimitError extends Error {
  constructor(readonly pending: number) {
    super(`${pending} pending invitations`);
  }
}

export type TokenKind = 'test' | 'access';

export interface TokenRow {
  id: number;
  user_id: number;
  token_hash: string;
  kind: TokenKind;
  client_id: string | null;
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
}

export const DEFAULT_USER_CONFIG: UserConfig = {
  broken_level: 'default',
  font_color: '',
  font_size: 0,
  lang: 'en',
  last_collection: -1,
  bookmarks_sort: DEFAULT_BOOKMARK_SORT,
  bookmarks_view: 'list',
};

/** Default storage quota for uploads: 100 MB for everyone, 10 GB on the paid plan. */
export const FILE_QUOTA = { free: 100 * 1024 * 1024, pro: 10 * 1024 * 1024 * 1024 };

export interface UserRow {
  id: number;
  email: string;
  password_hash: string | null;
  full_name: string;
  pro: number;
  pro_expire: string | null;
  config: string;
  groups_json: string;
  files_used: number;
  files_size: number;
  files_checkpoint: string;
  dropbox_enabled: number;
  gdrive_enabled: number;
  registered: string;
  changed_bookmarks_at: string | null;
}

export function toUser(row: UserRow): User {
  const user: User = {
    _id: row.id,
    config: { ...DEFAULT_USER_CONFIG, ...JSON.parse(row.config) },
    dropbox: { enabled: !!row.dropbox_enabled },
    email: row.email,
    email_MD5: md5(row.email),
    files: { used: row.files_used, size: row.files_size, lastCheckPoint: row.files_checkpoint },
    fullName: row.full_name,
    gdrive: { enabled: !!row.gdrive_enabled },
    groups: JSON.parse(row.groups_json),
    password: !!row.password_hash,
    pro: !!row.pro,
    registered: row.registered,
  };
  if (row.pro_expire) user.proExpire = row.pro_expire;
  return user;
}

export function toPublicUser(row: UserRow): PublicUser {
  return { _id: row.id, fullName: row.full_name };
}

export class DuplicateEmailError extends Error {
  constructor(email: string) {
    super(`An account with the email ${email} already exists. Sign in instead, or use another email.`);
  }
}

/** A `bookmarks` table row. */
export interface BookmarkRow {
  id: number;
  user_id: number;
  creator_id: number;
  collection_id: number;
  link: string;
  link_key: string;
  domain: string;
  title: string;
  excerpt: string;
  note: string;
  type: string;
  cover: string;
  media: string;
  tags: string;
  important: number;
  sort_order: number;
  removed: number;
  broken: number;
  lang: string | null;
  created: string;
  last_update: string;
}

/** A collection as an export folder: its id, title and parent (null at the top of the export). */
export interface ExportFolder {
  id: number;
  title: string;
  parentId: number | null;
}

// --- the repositories ---

/** Reads for exports (GET /bookmarks/{id}/export.*), in keyset-paged batches. */
export interface BookmarkExportRepository {
  /**
   * The collections the scope covers, in listing order (sort descending, then id), each with its
   * parent when that parent is in the scope too (otherwise null: a top folder of the export).
   */
  folders(scope: BookmarkScope): Promise<ExportFolder[]>;
  /**
   * The bookmarks of one collection of the scope matching `search`, newest first, in batches of
   * `batchSize`, each batch with highlights and attachments. `collectionId` is a collection id
   * from `folders`, or -1 / -99 for the owner's Unsorted / Trash (then `ownerId` is required).
   */
  bookmarksOf(collectionId: number, opts: { ownerId?: number; search?: string; batchSize?: number }): AsyncGenerator<Bookmark[]>;
}


/** The facts the permission module decides with. SQL stays here; the rules live in services/permissions.ts. */
export interface AccessRepository {
  collection(id: number): Promise<CollectionOwnerRow | undefined>;
  /** The collection and its ancestors, nearest first. */
  collectionWithAncestors(id: number): Promise<CollectionOwnerRow[]>;
  bookmarkLocation(id: number): Promise<{
    user_id: number;
    collection_id: number;
  } | undefined>;
  /**
   * The role `userId` holds on any of `collectionIds` through sharing (nearest first wins), or null.
   * `collectionIds` is a chain: the collection first, then its ancestors.
   */
  sharedRole(userId: number, collectionIds: number[]): Promise<ShareRole | null>;
  /** The caller's share rows on the chain `collectionIds` (collection first, then ancestors), nearest first. */
  sharedGrants(userId: number, collectionIds: number[]): Promise<{
    collection_id: number;
    role: ShareRole;
  }[]>;
  /** The nearest collection of the chain `collectionIds` that has any collaborator, or null. */
  nearestShared(collectionIds: number[]): Promise<number | null>;
  /** Ids of other users' collections shared with `userId`, including their descendants. */
  sharedCollectionIds(userId: number): Promise<number[]>;
}

/** Bookmark reads: listing, search, sorting, paging. */
export interface BookmarkQueriesRepository {
  /** The collection and all its descendants (ids), the collection first. */
  withDescendants(collectionId: number): Promise<number[]>;
  /**
   * One page of the scope's bookmarks matching `search`, and the total number of matches.
   *
   * Plans: when every match must match a full-text query, its size (counted in the index, under a
   * millisecond for most words) picks the plan. A small match is read from the index and its
   * rows looked up by id; a large one (a very common word) is better found by walking the
   * owner's (user_id, created) index and checking each row against the match, which for a
   * newest-first page stops after `perpage` hits.
   */
  list(scope: BookmarkScope, opts: ListOptions): Promise<{
    items: Bookmark[];
    count: number;
  }>;
}

/**
 * Bookmark writes: create (one or many), update incl. highlights, move, Trash and permanent
 * removal, bulk update/remove, and the duplicate lookup. Every write runs in one transaction,
 * sets `last_update` and keeps the full-text index in step.
 *
 * Manual order: `sort_order` ascending is the order a person arranged (`order: 0` = first).
 * A bookmark created or moved without `order` goes first in its collection.
 */
export interface BookmarksRepository {
  /** The bookmark with its highlights, or undefined. */
  get(id: number): Promise<Bookmark | undefined>;
  getMany(ids: number[]): Promise<Bookmark[]>;
  /** Inserts the bookmarks (with tags and highlights) in one transaction; returns their ids in order. */
  create(items: NewBookmark[]): Promise<number[]>;
  /**
   * Applies the changes in one transaction. Throws a 400 ApiError (nothing written) when a
   * highlight entry names an `_id` this bookmark does not have. Returns false when the bookmark is gone.
   */
  update(id: number, changes: BookmarkChanges): Promise<boolean>;
  /**
   * DELETE /bookmark/{id}: a bookmark outside Trash moves to its owner's Trash; one already in
   * Trash is removed for good. Returns what happened, or null when the bookmark is gone.
   */
  remove(id: number): Promise<'trashed' | 'deleted' | null>;
  /** Ids a bulk operation acts on, in manual order. */
  bulkTargets(scope: BulkScope): Promise<number[]>;
  /** Applies the same changes to every id (one transaction). Ids are expected from `bulkTargets`. */
  bulkUpdate(ids: number[], ownerId: number, changes: BulkChanges): Promise<number>;
  /** Moves the ids to their owner's Trash, or deletes them for good (`permanent`). One transaction. */
  bulkRemove(ids: number[], ownerId: number, permanent: boolean): Promise<number>;
  /**
   * The caller's saved (not removed) bookmarks whose `link_key` is one of `keys`, oldest first.
   * The one place that decides whose bookmarks count for duplicate checks.
   */
  findSavedByKeys(userId: number, keys: string[]): Promise<SavedLink[]>;
  /**
   * `pleaseParse: {}` on update: queues the background page parse (jobs.ts), all ids in one
   * transaction; the job runner fills the fields the owner left empty. (On create, `NewBookmark.pleaseParse`.)
   */
  onPleaseParse(bookmarkIds: number[], on: 'create' | 'update'): Promise<void>;
}

/**
 * Collections: tree, counts, ordering, merge, clean.
 *
 * Ordering: `sort` is a number, larger first among siblings. A new (or newly moved) collection
 * without an explicit `sort` gets (largest sort among its new siblings) + 1, so it appears first
 * under its parent. Reordering all collections (PUT /collections) rewrites the values of each
 * sibling group to n-1 ... 0.
 */
export interface CollectionsRepository {
  byId(id: number): Promise<CollectionRow | undefined>;
  /** The user's own collections with no parent. */
  roots(userId: number): Promise<CollectionRow[]>;
  /** The user's own nested collections (those with a parent), at any depth. */
  children(userId: number): Promise<CollectionRow[]>;
  /**
   * Other users' collections shared with `userId` and everything below them, by sort descending.
   */
  sharedWith(userId: number): Promise<CollectionRow[]>;
  /** The collection and all collections below it (the collection first). Empty when unknown. */
  descendantIds(id: number): Promise<number[]>;
  /** Creates a collection owned by `userId` (the owner of `parentId` when nested). */
  create(userId: number, input: CollectionFields & {
    title: string;
    parentId: number | null;
  }): Promise<CollectionRow>;
  /**
   * Changes fields and, when `parentId` is given (null = root), moves the collection. A move into
   * the collection itself or one of its descendants throws CollectionCycleError and changes nothing.
   */
  update(id: number, fields: CollectionFields, move?: {
    parentId: number | null;
  }): Promise<CollectionRow | undefined>;
  /**
   * Removes the collections with all their descendants in one transaction; every bookmark in them
   * moves to Trash. Returns how many bookmarks moved.
   */
  removeWithDescendants(ids: number[]): Promise<{
    collections: number;
    bookmarksMoved: number;
  }>;
  /**
   * Removes exactly the listed collections (DELETE /collections). Nested collections that are not
   * listed are kept: each moves under its nearest ancestor that survives, or to the root.
   * Bookmarks of removed collections move to Trash.
   */
  removeListed(ids: number[]): Promise<{
    collections: number;
    bookmarksMoved: number;
  }>;
  /** Deletes every bookmark in the user's Trash for good (highlights and tags cascade). */
  emptyTrash(userId: number): Promise<number>;
  /**
   * Rewrites `sort` of all the user's collections so that, within each parent, they list in the
   * asked order: `title` A to Z, `-title` Z to A, `-count` most bookmarks first (then by title).
   */
  reorderAll(userId: number, order: CollectionSort): Promise<void>;
  /** Expands or collapses all of the user's collections. */
  setExpandedAll(userId: number, expanded: boolean): Promise<void>;
  /**
   * Merges the listed collections into `to` (a collection id, or -1 Unsorted): their bookmarks move
   * to `to`, their child collections that are not listed move under `to` (to the root when `to` is
   * Unsorted), after `to`'s existing children, and the listed collections are removed.
   * Returns how many bookmarks moved.
   */
  merge(userId: number, to: number, ids: number[]): Promise<number>;
  /**
   * Removes all of the user's collections that hold no bookmarks and have no descendant that holds
   * any. Returns how many collections were removed.
   */
  clean(userId: number): Promise<number>;
}

/**
 * Files, covers and permanent copies as rows. The bytes are on disk (services/files/storage.ts);
 * triggers keep `users.files_used` equal to the sum of the owner's file sizes and list the paths
 * of removed rows in `file_garbage` for the job runner to delete.
 */
export interface FilesRepository {
  /** Bytes used and the quota, or undefined for an unknown user. */
  usage(userId: number): Promise<{
    used: number;
    quota: number;
  } | undefined>;
  /** Sets a user's storage quota in bytes. */
  setQuota(userId: number, bytes: number): Promise<void>;
  /**
   * Records a stored file against its owner's quota. Throws QuotaExceededError (nothing written)
   * when it does not fit; `freeing` names bytes this upload replaces (an old cover), which count
   * as free. Check and insert are one transaction, so two uploads cannot both squeeze in.
   */
  add(file: NewFile, freeing?: number): Promise<FileRow>;
  get(id: string): Promise<FileRow | undefined>;
  /** Removes the row (its bytes are queued for deletion and the quota freed by triggers). */
  remove(id: string): Promise<void>;
  /** Links an uploaded file to the bookmark made for it. */
  attachToBookmark(fileId: string, bookmarkId: number): Promise<void>;
  /** The bookmark's files of one kind, oldest first. */
  ofBookmark(bookmarkId: number, kind: FileRow['kind']): Promise<FileRow[]>;
  /** Size of the cover files a new cover of this bookmark or collection would replace. */
  coverBytes(target: {
    bookmarkId?: number;
    collectionId?: number;
  }): Promise<number>;
  /** Removes the older cover files of the bookmark or collection that `keepId` now covers. */
  dropOtherCovers(target: {
    bookmarkId?: number;
    collectionId?: number;
  }, keepId: string): Promise<void>;
  /** The bookmark's permanent copy, or undefined. */
  cacheOf(bookmarkId: number): Promise<CacheRow | undefined>;
  /**
   * Records (or replaces) a bookmark's permanent copy. Returns false, writing nothing, when the
   * bookmark is gone; the caller then deletes the bytes it stored.
   */
  saveCache(copy: Omit<CacheRow, 'created'>): Promise<boolean>;
  /** Up to `limit` paths of removed files still on disk. */
  garbage(limit?: number): Promise<string[]>;
  forgetGarbage(path: string): Promise<void>;
  /** Removes uploads that never got their bookmark (the process stopped in between), older than `ageMs`. */
  dropOrphans(ageMs: number): Promise<number>;
}

/** Highlight listings across bookmarks. (Writes go through PUT /bookmark/{id}, see bookmarks.ts.) */
export interface HighlightsRepository {
  /** One page of the highlights on the scope's bookmarks, newest first. */
  list(scope: BookmarkScope, page: number, perpage: number): Promise<HighlightListItem[]>;
}

/** Stored first answers for `Idempotency-Key` (migration 0005). Used by plugins/idempotency.ts. */
export interface IdempotencyRepository {
  /** Claims the key for this request, or says how the earlier request with it went. Atomic. */
  start(userId: number, key: string, fingerprint: string, now: number, staleMs: number): Promise<IdempotencyStart>;
  /** Stores the answer to replay. */
  finish(userId: number, key: string, status: number, body: string): Promise<void>;
  /** Forgets a claimed key whose request failed in a way worth retrying (5xx, 429). */
  abandon(userId: number, key: string): Promise<void>;
  /** Drops stored answers older than `before` (epoch ms). */
  prune(before: number): Promise<number>;
}

/**
 * Progress of the import command, so an interrupted import continues where it stopped: one run
 * per (user, file content, target), the collections made for the file's folders, and how many
 * bookmarks (in file order) have been handled.
 */
export interface ImportRunsRepository {
  find(userId: number, fileSha256: string, target: number): Promise<ImportRunRow | undefined>;
  start(input: {
    userId: number;
    fileSha256: string;
    fileName: string;
    target: number;
    total: number;
  }): Promise<ImportRunRow>;
  /** Collections already made for this run's folders, by folder path. */
  folders(runId: number): Promise<Map<string, number>>;
  saveFolder(runId: number, folderPath: string, collectionId: number): Promise<void>;
  /** Records that bookmarks up to `nextIndex` are handled, adding this batch's tally. */
  advance(runId: number, nextIndex: number, tally: ImportTally): Promise<ImportRunRow>;
  finish(runId: number): Promise<ImportRunRow>;
}

/**
 * The durable job table: claim due work with a lease, finish, retry with backoff, and write a
 * page reading's results into a bookmark without overwriting what its owner set.
 */
export interface JobsRepository {
  /**
   * Takes the next due job (queued and due, or running with an expired lease) and marks it running
   * until `now + leaseMs`, counting the attempt. One transaction, so two runners never take the same job.
   */
  claim(leaseMs: number): Promise<JobRow | undefined>;
  /** Lists jobs (newest first), optionally of one state; for tools and tests. */
  list(state?: JobRow['state']): Promise<JobRow[]>;
  /** Finished; `note` says what was done, or why nothing was (e.g. the bookmark is gone). */
  complete(id: number, note?: string | null): Promise<void>;
  /**
   * Records a failure: back to the queue after `retryInMs`, or failed for good when `retryInMs` is
   * null (no attempts left, or an error retrying cannot fix). A queued twin (same dedupe key, queued
   * while this one ran) makes a retry pointless: it will do the same work.
   */
  fail(id: number, error: string, retryInMs: number | null): Promise<'retry' | 'failed'>;
  /**
   * Gives a running job back without counting the attempt (the runner is stopping). If a twin got
   * queued meanwhile, this one is simply dropped as done: the twin covers it.
   */
  release(id: number): Promise<void>;
  /** Forgets finished jobs older than `ageMs`. */
  prune(ageMs: number): Promise<number>;
  /** The bookmark a page job works on, or undefined when it is gone. */
  bookmark(id: number): Promise<BookmarkRow | undefined>;
  /** Marks a bookmark's link broken (the page answered 404/410) or working again. */
  setBroken(bookmarkId: number, broken: boolean): Promise<void>;
  /**
   * Writes what the page reading found into fields that still hold their default, re-reading the
   * row in the same transaction so an edit made while the page was fetched is never overwritten:
   * title only when it is empty or the link itself, excerpt and cover only when empty (a cover of
   * `<screenshot>` is a request the owner made and stays), type only when `link`, media only when
   * there is none. Returns the names of the fields written.
   */
  fillFromPage(bookmarkId: number, fill: PageFill): Promise<string[]>;
}

/**
 * Reads for the saved-link index (GET /links). The change log `link_changes` is written by
 * triggers on `bookmarks` (migration 0005), so this repository only reads.
 */
export interface LinksRepository {
  /**
   * The newest change sequence number among `userId`'s own changes: a cursor that sees every later
   * change of theirs, and does not move when somebody else saves.
   */
  cursor(userId: number): Promise<number>;
  /** Saved (not removed) bookmarks of `userId` with an id above `afterId`, by id. */
  list(userId: number, afterId: number, limit: number): Promise<LinkEntry[]>;
  /**
   * Changes after `since`, oldest first: present ones as entries, the others as removed ids, and the
   * cursor to continue from. Read in one synchronous step, so no write can fall between the rows and
   * the cursor: when nothing is left for this user the cursor is their newest change.
   */
  changes(userId: number, since: number, limit: number): Promise<{
    items: LinkEntry[];
    removed: number[];
    cursor: number;
    more: boolean;
  }>;
}

/** Registered OAuth applications. Client secrets are returned once, at creation or regeneration. */
export interface OAuthClientsRepository {
  /**
   * Registers an application. Confidential clients get a secret (returned here only); public ones
   * (browser extensions, apps that cannot keep a secret) get none. `clientId` fixes the id (the
   * bundled extension's well-known id); otherwise a random one is made.
   */
  create(input: {
    ownerId: number | null;
    name: string;
    kind: ClientKind;
    redirectUris: string[];
    clientId?: string;
  }): Promise<{
    client: OAuthClient;
    secret: string | null;
  }>;
  byPk(id: number): Promise<OAuthClient | undefined>;
  byClientId(clientId: string): Promise<OAuthClient | undefined>;
  listForOwner(ownerId: number): Promise<OAuthClient[]>;
  update(id: number, changes: {
    name?: string;
    redirectUris?: string[];
    status?: ClientStatus;
    maxTokens?: number | null;
  }): Promise<OAuthClient>;
  /** Adds redirect URIs the client does not have yet, keeping the ones it has. */
  addRedirectUris(id: number, uris: string[]): Promise<OAuthClient>;
  /** Replaces a confidential client's secret; the old one stops working at once. */
  regenerateSecret(id: number): Promise<string>;
  /** Deletes the application and revokes every token issued to it. */
  delete(id: number): Promise<void>;
  /** Access tokens issued through OAuth to this client that still work (for the per-app limit). */
  countLiveAccessTokens(clientId: string): Promise<number>;
}

/** Authorization codes: single use, short-lived, bound to the client and redirect URI. */
export interface OAuthCodesRepository {
  create(input: {
    clientPk: number;
    userId: number;
    redirectUri: string;
    codeChallenge: string | null;
    ttlMs: number;
  }): Promise<{
    code: string;
    row: OAuthCodeRow;
  }>;
  /**
   * Marks the code used and returns its row as it was before (so `used_at` tells whether it had
   * already been used). Atomic: of two concurrent exchanges of one code, only one sees it unused.
   */
  consume(code: string): Promise<OAuthCodeRow | undefined>;
  /** The code's row without using it up (the exchange checks client, redirect URI and PKCE first). */
  find(code: string): Promise<OAuthCodeRow | undefined>;
  /** Forgets codes that expired more than a day ago (they can no longer be reused anyway). */
  purgeExpired(): Promise<number>;
}

/** Outside accounts (sign-in providers, storage) connected to a user. */
export interface OAuthConnectionsRepository {
  connect(userId: number, provider: string, accountId: string): Promise<void>;
  /** Removes the connection; true when there was one. */
  disconnect(userId: number, provider: string): Promise<boolean>;
  listForUser(userId: number): Promise<ConnectionRow[]>;
}

/**
 * Grants (what a user authorized an app to do, one per exchanged code) with their rotating refresh
 * tokens and the access tokens issued under them. Writes that issue or revoke several tokens run in
 * one transaction.
 */
export interface OAuthGrantsRepository {
  /** Starts a grant from an exchanged code and issues its first access and refresh tokens. */
  createFromCode(input: {
    clientPk: number;
    clientId: string;
    userId: number;
    codeId: number;
    accessTtlMs: number;
  }): Promise<IssuedPair>;
  /**
   * Exchanges a refresh token for a new pair. The presented token stops working. Presenting a
   * token that was already rotated means it leaked or was replayed: the whole grant is revoked.
   */
  rotate(input: {
    refreshToken: string;
    clientPk: number;
    clientId: string;
    accessTtlMs: number;
  }): Promise<{
    ok: true;
    pair: IssuedPair;
    userId: number;
  } | {
    ok: false;
    reason: 'unknown' | 'wrong_client' | 'revoked' | 'replayed';
  }>;
  /** Revokes every token issued from a code (called when the code is presented a second time). */
  revokeByCode(codeId: number): Promise<void>;
  /** The grant an access token was issued under, if it came from OAuth. */
  grantOfAccessToken(tokenId: number): Promise<number | undefined>;
  /** Revokes all of the user's grants (and their tokens) except `keepGrantId`. Returns how many. */
  revokeAllForUser(userId: number, keepGrantId?: number): Promise<number>;
  /** "Revoke access" for one app: every grant of the user to that client, and its access tokens. */
  revokeForUserClient(userId: number, clientPk: number): Promise<number>;
  /** Apps the user has authorized and not revoked. */
  listAuthorizedApps(userId: number): Promise<AuthorizedApp[]>;
}

/** Web sign-in sessions. The cookie carries a random secret; only its hash is stored. */
export interface SessionsRepository {
  create(input: {
    userId: number;
    ttlMs: number;
    userAgent?: string;
  }): Promise<{
    token: string;
    row: SessionRow;
  }>;
  /** The live session for a cookie secret, or undefined when unknown, ended or expired. */
  findValid(token: string): Promise<SessionRow | undefined>;
  revoke(id: number): Promise<void>;
  /** Ends every session of the user except `keepId`. Returns how many were ended. */
  revokeAllForUser(userId: number, keepId?: number): Promise<number>;
  /**
   * A random key the server generates once and keeps in the database (so it survives restarts and
   * is shared by every process on the same data), e.g. for signing CSRF tokens.
   */
  serverKey(name: string): Promise<string>;
}

/**
 * Collaborators and invitations. Roles are stored per collection and inherited by descendants
 * (services/permissions.ts reads them through repositories/access.ts); this repository writes them.
 * Times are epoch milliseconds from the injected clock.
 */
export interface SharingRepository {
  /**
   * The effective collaborators of a collection given its chain (the collection first, then its
   * ancestors): everyone with a share on any of them, each with the role of their nearest share.
   * In the order they joined.
   */
  collaborators(chain: number[]): Promise<CollaboratorRow[]>;
  /** Gives `userId` `role` on `collectionId` (and so on its descendants), replacing a role held there. */
  setRole(collectionId: number, userId: number, role: ShareRole, invitedBy: number | null): Promise<void>;
  /**
   * Takes `userId` out of the listed collections (a collection's chain and its descendants): their
   * shares there go, and so do the open invitations they sent for those collections (an invitation
   * from someone who has no access any more is not honoured). Returns how many shares were removed.
   */
  removeUser(userId: number, collectionIds: number[]): Promise<number>;
  /** Unshares the listed collections: every share and every open invitation on them goes. */
  unshare(collectionIds: number[]): Promise<{
    collaborators: number;
    invitations: number;
  }>;
  /** Open (not accepted) invitations sent by `inviterId` that have not expired. */
  pendingCount(inviterId: number): Promise<number>;
  /**
   * Issues invitations to `emails` for a collection, in one transaction. An address with an open
   * invitation for the collection gets that invitation renewed (new secret, role and expiry, the
   * caller as inviter) instead of a second one. If the inviter would then hold more than
   * `maxPending` pending invitations, nothing is written and PendingLimitError is thrown.
   */
  invite(input: NewInvitations): Promise<IssuedInvitation[]>;
  /** Gives an open invitation a new secret and expiry (for a resend). Returns the new secret. */
  renew(invitationId: number, ttlMs: number): Promise<{
    invitation: InvitationRow;
    token: string;
  } | undefined>;
  markSent(invitationId: number): Promise<void>;
  markFailed(invitationId: number, error: string): Promise<void>;
  /** The invitation a join link's secret belongs to (whatever its state), or undefined. */
  byToken(token: string): Promise<InvitationRow | undefined>;
  /**
   * Accepts an invitation: `userId` gets its role on its collection and the secret is used up, in
   * one transaction. False when it was accepted (or expired) in the meantime: nothing changes then.
   * With `grant` false the secret is used up but no role is written (the user already has as much).
   */
  accept(invitationId: number, userId: number, grant?: boolean): Promise<boolean>;
  /** Open invitations (pending or expired, not accepted) on the listed collections, newest first. */
  openInvitations(collectionIds: number[]): Promise<InvitationRow[]>;
  /**
   * Open invitations for a resend: all, or those of one collection and/or address; only those whose
   * last mail failed (or was never sent) when `unsentOnly`.
   */
  findOpen(filter: {
    collectionId?: number;
    email?: string;
    unsentOnly?: boolean;
  }): Promise<InvitationRow[]>;
}

/** Counts behind `GET /user/stats`. */
export interface StatsRepository {
  systemCounts(userId: number): Promise<{
    all: number;
    unsorted: number;
    trash: number;
    duplicates: number;
    broken: number;
  }>;
}

/** Tags: counts, rename, merge, remove, suggestions. */
export interface TagsRepository {
  /**
   * Tags on the scope's bookmarks with how many bookmarks carry each, sorted by name. Spellings
   * that differ only in case are one entry, named by the most used spelling.
   */
  list(scope: BookmarkScope): Promise<Tag[]>;
  /**
   * Renames `from` (one tag) or merges them (several) into `to` on the scope's bookmarks. Spellings
   * of `to` that differ only in case become `to` too. Returns the ids of the bookmarks changed.
   */
  rename(scope: BookmarkScope, from: string[], to: string): Promise<number[]>;
  /** Removes the tags from the scope's bookmarks. Returns the ids of the bookmarks changed. */
  remove(scope: BookmarkScope, tags: string[]): Promise<number[]>;
  /**
   * Up to `limit` of the owner's existing tags that fit the bookmark, best first, none it already
   * has. Evidence: tags on the owner's other bookmarks of the same domain (strongest), a tag whose
   * words appear in the bookmark's title, excerpt or link path, and tags of the owner's bookmarks
   * most similar in text (full-text ranking on the title's words). No outside service is asked.
   *
   * `forUserId` is whose tags and bookmarks the evidence comes from (default: the bookmark's owner).
   * A collaborator asking about a bookmark in a shared collection gets suggestions from their own
   * library, so the owner's tags elsewhere are never shown to them.
   */
  suggest(bookmarkId: number, limit?: number, forUserId?: number): Promise<TagSuggestion[]>;
}

/** Bearer tokens for the API. Only hashes are stored; the secret is returned once, at creation. */
export interface TokensRepository {
  create(input: {
    userId: number;
    kind: TokenKind;
    clientId?: string | null;
    expiresAt?: number | null;
  }): Promise<{
    token: string;
    row: TokenRow;
  }>;
  /**
   * The live token row for a secret, or undefined when unknown, revoked or expired. Answered at once
   * (not a promise) when it is known without asking the database: every API call asks this.
   */
  findValid(token: string): TokenRow | undefined | Promise<TokenRow | undefined>;
  revoke(id: number): Promise<void>;
  listForUser(userId: number): Promise<TokenRow[]>;
}

/** What a new account is made from. */
export interface NewUser {
  email: string;
  passwordHash: string | null;
  fullName?: string;
  pro?: boolean;
}

export interface UsersRepository {
  create(input: NewUser): Promise<UserRow>;
  byId(id: number): Promise<UserRow | undefined>;
  byEmail(email: string): Promise<UserRow | undefined>;
  count(): Promise<number>;
  update(id: number, changes: {
    fullName?: string;
    config?: Partial<UserConfig>;
    groups?: UserGroup[];
    email?: string;
    passwordHash?: string;
  }): Promise<UserRow>;
  /** Records that the user's bookmarks changed (shown as `changedBookmarksDate` in stats). */
  touchBookmarks(id: number): Promise<void>;
}

/**
 * One-time OAuth consent hand-offs (the 303 after the consent form, then a 307 to the app), kept in
 * the database so the follow-up request may reach any instance. Ids are stored hashed.
 */
export interface OAuthHandoffsRepository {
  /** Stores a hand-off under a new random id (answered), valid for `ttlMs`; forgets expired ones. */
  create(input: { userId: number; location: string; ttlMs: number }): Promise<string>;
  /** The hand-off's location, once: only for its user and before it expires (then it is gone). */
  take(id: string, userId: number): Promise<string | undefined>;
}

/**
 * Fixed-window request counters for rate limits. On PostgreSQL they live in the database, so every
 * instance counts into the same window; the embedded SQLite backend (one server process per data
 * directory) keeps them in the process.
 */
export interface RateWindowsRepository {
  /**
   * Counts one request for `key` in its current window of `windowMs`: the window's start (epoch ms)
   * and this request's number in it (over `limit` means refused). `limit` lets a backend shared by
   * several instances count ahead in blocks while the limit is far (see PgRateWindowsRepository).
   */
  hit(key: string, windowMs: number, limit: number): RateWindowCount | Promise<RateWindowCount>;
}

/**
 * A request's place in its rate-limit window. Answered at once (not a promise) when it is known
 * without asking the database, as for most requests: every API call counts.
 */
export interface RateWindowCount {
  start: number;
  count: number;
}

/**
 * Failed password checks per key (an account or an address), for the sign-in throttle. On
 * PostgreSQL they live in the database, so the limit holds across instances; the embedded SQLite
 * backend keeps them in the process.
 */
export interface SignInFailuresRepository {
  /** Times (epoch ms) of the failures recorded for `key` after `since`, oldest first. */
  recent(key: string, since: number): Promise<number[]>;
  /** Records one failure at `at` for each key; failures older than `keepMs` before it may be forgotten. */
  add(keys: string[], at: number, keepMs: number): Promise<void>;
  /** Forgets the key's failures (a correct password for that account). */
  clear(key: string): Promise<void>;
}

/** The repositories of web sign-ins and OAuth: `app.repos.oauth` in the service. */
export interface OAuthRepositories {
  sessions: SessionsRepository;
  clients: OAuthClientsRepository;
  codes: OAuthCodesRepository;
  grants: OAuthGrantsRepository;
  connections: OAuthConnectionsRepository;
  handoffs: OAuthHandoffsRepository;
}

/** Every data access the service makes, on whichever backend was opened (repositories/open.ts). */
export interface Repositories {
  users: UsersRepository;
  tokens: TokensRepository;
  access: AccessRepository;
  collections: CollectionsRepository;
  bookmarks: BookmarksRepository;
  bookmarkQueries: BookmarkQueriesRepository;
  bookmarkExport: BookmarkExportRepository;
  highlights: HighlightsRepository;
  tags: TagsRepository;
  stats: StatsRepository;
  sharing: SharingRepository;
  oauth: OAuthRepositories;
  files: FilesRepository;
  jobs: JobsRepository;
  links: LinksRepository;
  idempotency: IdempotencyRepository;
  importRuns: ImportRunsRepository;
  rateWindows: RateWindowsRepository;
  signInFailures: SignInFailuresRepository;
}
