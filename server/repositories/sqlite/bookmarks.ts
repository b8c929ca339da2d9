import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import { isoNow } from '../../clock.js';
import type { Bookmark, HighlightChange, Media } from '../../../lib/api/types.js';
import { TRASH } from '../../../lib/api/constants.js';
import { bookmarkInsert, bulkSet, changedColumns, chunks, mediaToAppend, newHighlightRows, planHighlightChanges, tagsToAppend, type HighlightRow } from '../bookmark-records.js';
import { loadBookmarks } from './bookmark-rows.js';
import type { FullTextIndex } from './fts.js';
import { cacheSignalOf } from '../../db/change-tracker.js';
import { ReadCache } from '../../db/read-cache.js';
import { enqueuePageParse } from './jobs.js';
import { compileSearch } from './search-sql.js';
import { type BookmarkChanges, type BulkChanges, type BulkScope, type NewBookmark, type NewHighlight, type SavedLink, type BookmarksRepository, type BookmarkRow } from '../types/index.js';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(',');

/**
 * Bookmark writes: create (one or many), update incl. highlights, move, Trash and permanent
 * removal, bulk update/remove, and the duplicate lookup. Every write runs in one transaction,
 * sets `last_update` and keeps the full-text index in step.
 *
 * Manual order: `sort_order` ascending is the order a person arranged (`order: 0` = first).
 * A bookmark created or moved without `order` goes first in its collection.
 */
export class SqliteBookmarksRepository implements BookmarksRepository {
  private readonly stmt;
  /** Single bookmarks as `get` answers them (GET /bookmark/{id} is the hottest read). Dropped on any write. */
  private readonly byId: ReadCache<number, Bookmark | undefined>;

  constructor(protected db: Db, protected clock: Clock, protected fts: FullTextIndex) {
    this.byId = new ReadCache(cacheSignalOf(db), 5_000);
    this.stmt = {
      row: db.prepare('SELECT * FROM bookmarks WHERE id = ?'),
      insert: db.prepare(
        `INSERT INTO bookmarks (user_id, creator_id, collection_id, link, link_key, domain, title, excerpt, note, type,
           cover, media, tags, important, sort_order, removed, created, last_update)
         VALUES (@user_id, @creator_id, @collection_id, @link, @link_key, @domain, @title, @excerpt, @note, @type,
           @cover, @media, @tags, @important, @sort_order, @removed, @created, @last_update)`,
      ),
      insertTag: db.prepare('INSERT OR IGNORE INTO bookmark_tags (bookmark_id, user_id, tag) VALUES (?, ?, ?)'),
      clearTags: db.prepare('DELETE FROM bookmark_tags WHERE bookmark_id = ?'),
      insertHighlight: db.prepare(
        `INSERT INTO highlights (id, bookmark_id, user_id, text, note, color, position, prefix, suffix, created, last_update)
         VALUES (@id, @bookmark_id, @user_id, @text, @note, @color, @position, @prefix, @suffix, @created, @last_update)`,
      ),
      highlightsOf: db.prepare('SELECT * FROM highlights WHERE bookmark_id = ? ORDER BY created, rowid'),
      deleteHighlight: db.prepare('DELETE FROM highlights WHERE id = ?'),
      updateHighlight: db.prepare(
        `UPDATE highlights SET text = ?, note = ?, color = ?, position = ?, prefix = ?, suffix = ?, last_update = ? WHERE id = ?`,
      ),
      // ORDER BY + LIMIT (not min()/max()) so SQLite walks bookmarks_collection_order and stops at the first row.
      minOrder: db.prepare(
        'SELECT sort_order AS v FROM bookmarks WHERE collection_id = ? AND user_id = ? ORDER BY sort_order LIMIT 1',
      ),
      maxOrder: db.prepare(
        'SELECT sort_order AS v FROM bookmarks WHERE collection_id = ? AND user_id = ? AND id <> ? ORDER BY sort_order DESC LIMIT 1',
      ),
      orderAt: db.prepare(
        `SELECT sort_order AS v FROM bookmarks WHERE collection_id = ? AND user_id = ? AND id <> ?
          ORDER BY sort_order, id LIMIT 1 OFFSET ?`,
      ),
      shiftFrom: db.prepare(
        'UPDATE bookmarks SET sort_order = sort_order + 1 WHERE collection_id = ? AND user_id = ? AND sort_order >= ? AND id <> ?',
      ),
      setPlace: db.prepare(
        'UPDATE bookmarks SET collection_id = ?, user_id = ?, removed = ?, sort_order = ?, last_update = ? WHERE id = ?',
      ),
      ownerOfTags: db.prepare('UPDATE bookmark_tags SET user_id = ? WHERE bookmark_id = ?'),
      ownerOfHighlights: db.prepare('UPDATE highlights SET user_id = ? WHERE bookmark_id = ?'),
      deleteBookmark: db.prepare('DELETE FROM bookmarks WHERE id = ?'),
      tagsAndMedia: db.prepare('SELECT tags, media FROM bookmarks WHERE id = ?'),
      setTags: db.prepare('UPDATE bookmarks SET tags = ? WHERE id = ?'),
      setMedia: db.prepare('UPDATE bookmarks SET media = ? WHERE id = ?'),
    };
  }

  /** The bookmark with its highlights, or undefined. */
  async get(id: number): Promise<Bookmark | undefined> {
    return this.byId.get(id, () => loadBookmarks(this.db, [id])[0]);
  }

  async getMany(ids: number[]): Promise<Bookmark[]> {
    return loadBookmarks(this.db, ids);
  }

  /**
   * Inserts the bookmarks (with tags and highlights) in one transaction, with the page parses of those
   * asking `pleaseParse`; returns their ids in order.
   */
  async create(items: NewBookmark[]): Promise<number[]> {
    const now = isoNow(this.clock);
    const tx = this.db.transaction((list: NewBookmark[]) => {
      // Bookmarks without `order` go first, keeping the order they were sent in:
      // reserve a block of positions before the current first one, per collection.
      const topSlots = new Map<string, { next: number }>();
      for (const item of list) {
        if (item.order !== undefined) continue;
        const key = `${item.ownerId}:${item.collectionId}`;
        const slot = topSlots.get(key);
        if (slot) slot.next -= 1;
        else topSlots.set(key, { next: this.firstOrder(item.collectionId, item.ownerId) - 1 });
      }
      const ids: number[] = [];
      for (const item of list) {
        let sort: number;
        if (item.order !== undefined) sort = this.makeRoomAt(item.collectionId, item.ownerId, item.order, 0);
        else sort = topSlots.get(`${item.ownerId}:${item.collectionId}`)!.next++;
        const info = this.stmt.insert.run(bookmarkInsert(item, sort, now));
        const id = Number(info.lastInsertRowid);
        for (const tag of item.tags) this.stmt.insertTag.run(id, item.ownerId, tag);
        this.addHighlights(id, item.ownerId, item.highlights, now);
        this.fts.add(id, item);
        ids.push(id);
      }
      enqueuePageParse(this.db, ids.filter((_, i) => list[i].pleaseParse), 'create', this.clock.now());
      return ids;
    });
    return tx(items);
  }

  /**
   * Applies the changes in one transaction. Throws a 400 ApiError (nothing written) when a
   * highlight entry names an `_id` this bookmark does not have. Returns false when the bookmark is gone.
   */
  async update(id: number, changes: BookmarkChanges): Promise<boolean> {
    const now = isoNow(this.clock);
    const tx = this.db.transaction(() => {
      const row = this.stmt.row.get(id) as BookmarkRow | undefined;
      if (!row) return false;
      const columns: [string, unknown][] = [...changedColumns(changes), ['last_update', now]];
      const set = columns.map(([column]) => `${column} = ?`);
      const values = columns.map(([, value]) => value);
      values.push(id);
      this.db.prepare(`UPDATE bookmarks SET ${set.join(', ')} WHERE id = ?`).run(...values);

      let ownerId = row.user_id;
      const target = changes.move;
      if (target && (target.collectionId !== row.collection_id || target.ownerId !== row.user_id)) {
        this.place([id], row.user_id, target, now, changes.order);
        ownerId = target.ownerId;
      } else if (changes.order !== undefined) {
        const sort = this.makeRoomAt(row.collection_id, row.user_id, changes.order, id);
        this.stmt.setPlace.run(row.collection_id, row.user_id, row.removed, sort, now, id);
      }

      if (changes.tags !== undefined) {
        this.stmt.clearTags.run(id);
        for (const tag of changes.tags) this.stmt.insertTag.run(id, ownerId, tag);
      }
      if (changes.highlights) this.applyHighlightChanges(id, ownerId, changes.highlights, now);
      this.fts.reindex([id]);
      return true;
    });
    return tx();
  }

  /**
   * DELETE /bookmark/{id}: a bookmark outside Trash moves to its owner's Trash; one already in
   * Trash is removed for good. Returns what happened, or null when the bookmark is gone.
   */
  async remove(id: number): Promise<'trashed' | 'deleted' | null> {
    const now = isoNow(this.clock);
    const tx = this.db.transaction(() => {
      const row = this.stmt.row.get(id) as BookmarkRow | undefined;
      if (!row) return null;
      if (row.collection_id === TRASH) {
        this.stmt.deleteBookmark.run(id);
        this.fts.drop([id]);
        return 'deleted' as const;
      }
      this.place([id], row.user_id, { collectionId: TRASH, ownerId: row.user_id }, now);
      return 'trashed' as const;
    });
    return tx();
  }

  /** Ids a bulk operation acts on, in manual order. */
  async bulkTargets(scope: BulkScope): Promise<number[]> {
    const where = ['b.user_id = ?', 'b.collection_id = ?'];
    const params: unknown[] = [scope.ownerId, scope.collectionId];
    if (scope.ids) {
      if (scope.ids.length === 0) return [];
      where.push(`b.id IN (${marks(scope.ids.length)})`);
      params.push(...scope.ids);
    }
    if (scope.search) {
      const filter = compileSearch(scope.search);
      where.push(`(${filter.where})`);
      params.push(...filter.params);
    }
    const rows = this.db
      .prepare(`SELECT b.id FROM bookmarks b WHERE ${where.join(' AND ')} ORDER BY b.sort_order, b.id`)
      .all(...params) as { id: number }[];
    return rows.map((r) => r.id);
  }

  /** Applies the same changes to every id (one transaction). Ids are expected from `bulkTargets`. */
  async bulkUpdate(ids: number[], ownerId: number, changes: BulkChanges): Promise<number> {
    if (ids.length === 0) return 0;
    const now = isoNow(this.clock);
    const tx = this.db.transaction(() => {
      const { set, values } = bulkSet(changes, now);
      for (const part of chunks(ids)) {
        this.db.prepare(`UPDATE bookmarks SET ${set} WHERE id IN (${marks(part.length)})`).run(...values, ...part);
        if (changes.tags?.length === 0) {
          this.db.prepare(`DELETE FROM bookmark_tags WHERE bookmark_id IN (${marks(part.length)})`).run(...part);
        }
      }
      const appendTags = changes.tags && changes.tags.length > 0 ? changes.tags : null;
      const appendMedia = changes.media && changes.media.length > 0 ? changes.media : null;
      if (appendTags || appendMedia) {
        for (const id of ids) {
          const cur = this.stmt.tagsAndMedia.get(id) as { tags: string; media: string };
          if (appendTags) {
            const tags = JSON.parse(cur.tags) as string[];
            const added = tagsToAppend(tags, appendTags);
            if (added.length) {
              this.stmt.setTags.run(JSON.stringify([...tags, ...added]), id);
              for (const tag of added) this.stmt.insertTag.run(id, ownerId, tag);
            }
          }
          if (appendMedia) {
            const media = JSON.parse(cur.media) as Media[];
            const added = mediaToAppend(media, appendMedia);
            if (added.length) this.stmt.setMedia.run(JSON.stringify([...media, ...added]), id);
          }
        }
      }
      if (changes.move) this.place(ids, ownerId, changes.move, now);
      if (changes.tags !== undefined) this.fts.reindex(ids);
      return ids.length;
    });
    return tx();
  }

  /** Moves the ids to their owner's Trash, or deletes them for good (`permanent`). One transaction. */
  async bulkRemove(ids: number[], ownerId: number, permanent: boolean): Promise<number> {
    if (ids.length === 0) return 0;
    const now = isoNow(this.clock);
    const tx = this.db.transaction(() => {
      if (permanent) {
        for (const part of chunks(ids)) {
          this.db.prepare(`DELETE FROM bookmarks WHERE id IN (${marks(part.length)})`).run(...part);
        }
        this.fts.drop(ids);
      } else {
        this.place(ids, ownerId, { collectionId: TRASH, ownerId }, now);
      }
      return ids.length;
    });
    return tx();
  }

  /**
   * The caller's saved (not removed) bookmarks whose `link_key` is one of `keys`, oldest first.
   * The one place that decides whose bookmarks count for duplicate checks.
   */
  async findSavedByKeys(userId: number, keys: string[]): Promise<SavedLink[]> {
    const unique = [...new Set(keys)];
    const out: SavedLink[] = [];
    for (const part of chunks(unique)) {
      const rows = this.db
        .prepare(
          `SELECT id, link, link_key FROM bookmarks
            WHERE user_id = ? AND link_key IN (${marks(part.length)}) AND removed = 0
            ORDER BY id`,
        )
        .all(userId, ...part) as { id: number; link: string; link_key: string }[];
      for (const r of rows) out.push({ _id: r.id, link: r.link, linkKey: r.link_key });
    }
    return out;
  }

  /**
   * `pleaseParse: {}` on create/update: queues the background page parse (jobs.ts), all ids in
   * one transaction; the job runner fills the fields the owner left empty.
   */
  async onPleaseParse(bookmarkIds: number[], on: 'create' | 'update'): Promise<void> {
    if (bookmarkIds.length === 0) return;
    this.db.transaction(() => enqueuePageParse(this.db, bookmarkIds, on, this.clock.now()))();
  }

  // --- internals (synchronous: they run inside the callers' transactions) ---

  /** The smallest sort_order in a collection, or 0 when it is empty (so the first one gets -1). */
  private firstOrder(collectionId: number, ownerId: number): number {
    const row = this.stmt.minOrder.get(collectionId, ownerId) as { v: number } | undefined;
    return row ? row.v : 0;
  }

  /**
   * Frees position `position` (0-based, ascending) in a collection by moving every bookmark from
   * that position on one step down, and returns the sort value to use. A position past the end
   * answers the value after the last one. `excludeId` is the bookmark being placed (0 for none).
   */
  private makeRoomAt(collectionId: number, ownerId: number, position: number, excludeId: number): number {
    const at = this.stmt.orderAt.get(collectionId, ownerId, excludeId, position) as { v: number } | undefined;
    if (!at) {
      const last = this.stmt.maxOrder.get(collectionId, ownerId, excludeId) as { v: number } | undefined;
      return last ? Math.floor(last.v) + 1 : 0;
    }
    this.stmt.shiftFrom.run(collectionId, ownerId, at.v, excludeId);
    return at.v;
  }

  /**
   * Puts bookmarks (all owned by `fromOwner`) into a collection: at `order` when given (single
   * bookmark), else first, keeping their relative order. Entering Trash sets `removed`, leaving
   * it clears it; a new owner carries over to tags and highlights.
   */
  private place(ids: number[], fromOwner: number, target: { collectionId: number; ownerId: number }, now: string, order?: number): void {
    const removed = target.collectionId === TRASH ? 1 : 0;
    let next: number;
    if (order !== undefined && ids.length === 1) {
      next = this.makeRoomAt(target.collectionId, target.ownerId, order, ids[0]);
    } else {
      next = this.firstOrder(target.collectionId, target.ownerId) - ids.length;
    }
    for (const id of ids) {
      this.stmt.setPlace.run(target.collectionId, target.ownerId, removed, next++, now, id);
      if (target.ownerId !== fromOwner) {
        this.stmt.ownerOfTags.run(target.ownerId, id);
        this.stmt.ownerOfHighlights.run(target.ownerId, id);
      }
    }
  }

  private addHighlights(bookmarkId: number, ownerId: number, list: NewHighlight[], now: string): void {
    for (const row of newHighlightRows(bookmarkId, ownerId, list, now, this.clock)) this.stmt.insertHighlight.run(row);
  }

  private applyHighlightChanges(bookmarkId: number, ownerId: number, changes: HighlightChange[], now: string): void {
    const current = this.stmt.highlightsOf.all(bookmarkId) as HighlightRow[];
    const plan = planHighlightChanges(bookmarkId, current, changes, now);
    for (const id of plan.remove) this.stmt.deleteHighlight.run(id);
    for (const h of plan.update) {
      this.stmt.updateHighlight.run(h.text, h.note, h.color, h.position, h.prefix, h.suffix, h.last_update, h.id);
    }
    this.addHighlights(bookmarkId, ownerId, plan.add, now);
  }
}
