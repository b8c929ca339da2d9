import type pg from 'pg';
import type { Bookmark, HighlightChange, Media } from '../../../lib/api/types.js';
import { TRASH } from '../../../lib/api/constants.js';
import { isoNow, type Clock } from '../../clock.js';
import { noCaches, ReadCache, type CacheSignals } from '../../db/read-cache.js';
import { bookmarkInsert, bulkSet, changedColumns, mediaToAppend, newHighlightRows, planHighlightChanges, tagsToAppend, type HighlightRow } from '../bookmark-records.js';
import type { BookmarkChanges, BookmarkRow, BookmarksRepository, BulkChanges, BulkScope, NewBookmark, NewHighlight, SavedLink } from '../types/index.js';
import { BOOKMARK_COLUMNS, HIGHLIGHT_COLUMNS, loadBookmarks } from './bookmark-rows.js';
import { firstOrder, makeRoomAt, orderKey, placeBookmarks } from './bookmark-order.js';
import { enqueuePageParse } from './jobs.js';
import { all, lockKeys, one, pgJson, run, withoutNul } from './query.js';
import { compilePgSearch } from './search-sql.js';
import { inTransaction } from './transaction.js';

/**
 * Bookmark writes on PostgreSQL: create (one or many), update incl. highlights, move, Trash and
 * permanent removal, bulk update/remove, and the duplicate lookup, with the same records, order
 * and errors as on SQLite. Every write runs in one transaction and sets `last_update`; the
 * search column follows by its triggers (bookmark fields, tags, highlights).
 *
 * Where SQLite's single writer made read-then-write safe, this takes locks: the bookmark rows
 * changed (`FOR UPDATE`, in id order) and, for writes that compute a manual-order position, the
 * collection's order lock (always taken before any row lock, so writers cannot deadlock).
 */
export class PgBookmarksRepository implements BookmarksRepository {
  /**
   * Single bookmarks as `get` answers them (GET /bookmark/{id} is the hottest read), emptied on any
   * change to the tables a bookmark record is read from, by any instance (change notifications,
   * see PgChangeFeed).
   */
  private readonly byId: ReadCache<number, Bookmark | undefined>;

  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
    signals: CacheSignals = noCaches,
  ) {
    this.byId = new ReadCache(signals(['bookmarks', 'highlights', 'files', 'bookmark_caches']), 5_000);
  }

  /** The bookmark with its highlights, or undefined. */
  async get(id: number): Promise<Bookmark | undefined> {
    return this.byId.getAsync(id, async () => (await loadBookmarks(this.pool, [id]))[0]);
  }

  async getMany(ids: number[]): Promise<Bookmark[]> {
    return loadBookmarks(this.pool, ids);
  }

  /**
   * Inserts the bookmarks (with tags and highlights) in one transaction, with the page parses of those
   * asking `pleaseParse`; returns their ids in order.
   */
  async create(input: NewBookmark[]): Promise<number[]> {
    if (input.length === 0) return [];
    const items = withoutNul(input);
    const now = isoNow(this.clock);
    return inTransaction(this.pool, async (c) => {
      await lockKeys(c, items.map((i) => orderKey(i.ownerId, i.collectionId)));
      // Bookmarks without `order` go first, keeping the order they were sent in: a block of
      // positions before the current first one, per collection.
      const topSlots = new Map<string, { next: number }>();
      for (const item of items) {
        if (item.order !== undefined) continue;
        const key = orderKey(item.ownerId, item.collectionId);
        const slot = topSlots.get(key);
        if (slot) slot.next -= 1;
        else topSlots.set(key, { next: (await firstOrder(c, item.collectionId, item.ownerId)) - 1 });
      }
      // Ids in the order sent, taken up front so rows, tags and highlights go in one statement each.
      const ids = (
        await all<{ id: number }>(c, "SELECT nextval(pg_get_serial_sequence('bookmarks', 'id')) AS id FROM generate_series(1, ?)", [items.length])
      )
        .map((r) => r.id)
        .sort((a, b) => a - b);
      // A bookmark with `order` shifts the rows already in its collection: the ones before it must be written first.
      let pending: { id: number; item: NewBookmark; sort: number }[] = [];
      for (const [i, item] of items.entries()) {
        if (item.order !== undefined) {
          await this.insert(c, pending, now);
          pending = [];
          pending.push({ id: ids[i], item, sort: await makeRoomAt(c, item.collectionId, item.ownerId, item.order, 0) });
        } else {
          pending.push({ id: ids[i], item, sort: topSlots.get(orderKey(item.ownerId, item.collectionId))!.next++ });
        }
      }
      await this.insert(c, pending, now);
      await enqueuePageParse(c, ids.filter((_, i) => items[i].pleaseParse), 'create', this.clock.now());
      return ids;
    });
  }

  /** Writes new bookmarks with their tags and highlights: three statements for the lot. */
  private async insert(c: pg.PoolClient, list: { id: number; item: NewBookmark; sort: number }[], now: string): Promise<void> {
    if (list.length === 0) return;
    const rows = list.map(({ id, item, sort }) => ({ id, ...bookmarkInsert(item, sort, now) }));
    const columns = Object.keys(rows[0]).join(', ');
    await run(c, `INSERT INTO bookmarks (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::bookmarks, ?::json)`, [pgJson(rows)]);
    await this.insertTags(
      c,
      list.flatMap(({ id, item }) => item.tags.map((tag) => ({ bookmark_id: id, user_id: item.ownerId, tag }))),
    );
    await this.insertHighlights(
      c,
      list.flatMap(({ id, item }) => newHighlightRows(id, item.ownerId, item.highlights, now, this.clock)),
    );
  }

  private async insertTags(c: pg.PoolClient, rows: { bookmark_id: number; user_id: number; tag: string }[]): Promise<void> {
    if (rows.length === 0) return;
    await run(
      c,
      `INSERT INTO bookmark_tags (bookmark_id, user_id, tag)
       SELECT bookmark_id, user_id, tag FROM json_populate_recordset(NULL::bookmark_tags, ?::json) ON CONFLICT DO NOTHING`,
      [pgJson(rows)],
    );
  }

  /** Inserts highlights in the order given (their `seq` keeps it). */
  private async insertHighlights(c: pg.PoolClient, rows: HighlightRow[]): Promise<void> {
    if (rows.length === 0) return;
    await run(
      c,
      `INSERT INTO highlights (${HIGHLIGHT_COLUMNS})
       SELECT ${HIGHLIGHT_COLUMNS} FROM json_populate_recordset(NULL::highlights, ?::json) WITH ORDINALITY AS h ORDER BY h.ordinality`,
      [pgJson(rows)],
    );
  }

  /**
   * Applies the changes in one transaction. Throws a 400 ApiError (nothing written) when a
   * highlight entry names an `_id` this bookmark does not have. Returns false when the bookmark is gone.
   */
  async update(id: number, input: BookmarkChanges): Promise<boolean> {
    const changes = withoutNul(input);
    const now = isoNow(this.clock);
    const placing = changes.move !== undefined || changes.order !== undefined;
    return inTransaction(this.pool, async (c) => {
      const row = await this.lockRow(c, id, placing ? (r) => [orderKey(r.user_id, r.collection_id), ...(changes.move ? [orderKey(changes.move.ownerId, changes.move.collectionId)] : [])] : null);
      if (!row) return false;
      const columns: [string, unknown][] = [...changedColumns(changes), ['last_update', now]];
      const set = columns.map(([column]) => `${column} = ?`);
      const values = columns.map(([, value]) => value);
      await run(c, `UPDATE bookmarks SET ${set.join(', ')} WHERE id = ?`, [...values, id]);

      let ownerId = row.user_id;
      const target = changes.move;
      if (target && (target.collectionId !== row.collection_id || target.ownerId !== row.user_id)) {
        await placeBookmarks(c, [id], row.user_id, target, now, changes.order);
        ownerId = target.ownerId;
      } else if (changes.order !== undefined) {
        const sort = await makeRoomAt(c, row.collection_id, row.user_id, changes.order, id);
        await run(c, 'UPDATE bookmarks SET sort_order = ?, last_update = ? WHERE id = ?', [sort, now, id]);
      }

      if (changes.tags !== undefined) {
        await run(c, 'DELETE FROM bookmark_tags WHERE bookmark_id = ?', [id]);
        await this.insertTags(c, changes.tags.map((tag) => ({ bookmark_id: id, user_id: ownerId, tag })));
      }
      if (changes.highlights) await this.applyHighlightChanges(c, id, ownerId, changes.highlights, now);
      return true;
    });
  }

  /**
   * Locks the bookmark's row and returns it. With `orderKeys`, first takes the order locks of the
   * collections the write will place into (read from the row as it is now), then the row; should
   * the bookmark have moved in between, the locks of where it is now are taken too.
   */
  private async lockRow(c: pg.PoolClient, id: number, orderKeys: ((row: BookmarkRow) => string[]) | null): Promise<BookmarkRow | undefined> {
    const select = `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks WHERE id = ?`;
    let keys: string[] = [];
    if (orderKeys) {
      const seen = await one<BookmarkRow>(c, select, [id]);
      if (!seen) return undefined;
      keys = orderKeys(seen);
      await lockKeys(c, keys);
    }
    const row = await one<BookmarkRow>(c, `${select} FOR UPDATE`, [id]);
    if (row && orderKeys) {
      const missing = orderKeys(row).filter((k) => !keys.includes(k));
      if (missing.length) await lockKeys(c, missing);
    }
    return row;
  }

  /**
   * DELETE /bookmark/{id}: a bookmark outside Trash moves to its owner's Trash; one already in
   * Trash is removed for good. Returns what happened, or null when the bookmark is gone.
   */
  async remove(id: number): Promise<'trashed' | 'deleted' | null> {
    const now = isoNow(this.clock);
    return inTransaction(this.pool, async (c) => {
      const row = await this.lockRow(c, id, (r) => [orderKey(r.user_id, TRASH)]);
      if (!row) return null;
      if (row.collection_id === TRASH) {
        await run(c, 'DELETE FROM bookmarks WHERE id = ?', [id]);
        return 'deleted' as const;
      }
      await placeBookmarks(c, [id], row.user_id, { collectionId: TRASH, ownerId: row.user_id }, now);
      return 'trashed' as const;
    });
  }

  /** Ids a bulk operation acts on, in manual order. */
  async bulkTargets(scope: BulkScope): Promise<number[]> {
    const where = ['b.user_id = ?', 'b.collection_id = ?'];
    const params: unknown[] = [scope.ownerId, scope.collectionId];
    if (scope.ids) {
      if (scope.ids.length === 0) return [];
      where.push('b.id = ANY(?::bigint[])');
      params.push(scope.ids);
    }
    if (scope.search) {
      const filter = compilePgSearch(scope.search);
      where.push(`(${filter.where})`);
      params.push(...filter.params);
    }
    const rows = await all<{ id: number }>(this.pool, `SELECT b.id FROM bookmarks b WHERE ${where.join(' AND ')} ORDER BY b.sort_order, b.id`, params);
    return rows.map((r) => r.id);
  }

  /** Applies the same changes to every id (one transaction). Ids are expected from `bulkTargets`. */
  async bulkUpdate(ids: number[], ownerId: number, input: BulkChanges): Promise<number> {
    if (ids.length === 0) return 0;
    const changes = withoutNul(input);
    const now = isoNow(this.clock);
    return inTransaction(this.pool, async (c) => {
      if (changes.move) await lockKeys(c, [orderKey(changes.move.ownerId, changes.move.collectionId)]);
      const current = await all<{ id: number; tags: string; media: string }>(
        c,
        'SELECT id, tags, media FROM bookmarks WHERE id = ANY(?::bigint[]) ORDER BY id FOR UPDATE',
        [ids],
      );
      const { set, values } = bulkSet(changes, now);
      await run(c, `UPDATE bookmarks SET ${set} WHERE id = ANY(?::bigint[])`, [...values, ids]);
      if (changes.tags?.length === 0) await run(c, 'DELETE FROM bookmark_tags WHERE bookmark_id = ANY(?::bigint[])', [ids]);

      const appendTags = changes.tags && changes.tags.length > 0 ? changes.tags : null;
      const appendMedia = changes.media && changes.media.length > 0 ? changes.media : null;
      if (appendTags || appendMedia) {
        const written: { id: number; tags: string; media: string }[] = [];
        const newTags: { bookmark_id: number; user_id: number; tag: string }[] = [];
        for (const cur of current) {
          const next = { id: cur.id, tags: cur.tags, media: cur.media };
          if (appendTags) {
            const tags = JSON.parse(cur.tags) as string[];
            const added = tagsToAppend(tags, appendTags);
            if (added.length) next.tags = JSON.stringify([...tags, ...added]);
            for (const tag of added) newTags.push({ bookmark_id: cur.id, user_id: ownerId, tag });
          }
          if (appendMedia) {
            const media = JSON.parse(cur.media) as Media[];
            const added = mediaToAppend(media, appendMedia);
            if (added.length) next.media = JSON.stringify([...media, ...added]);
          }
          if (next.tags !== cur.tags || next.media !== cur.media) written.push(next);
        }
        if (written.length) {
          await run(
            c,
            `UPDATE bookmarks b SET tags = x.tags, media = x.media FROM json_to_recordset(?::json) AS x(id bigint, tags text, media text) WHERE b.id = x.id`,
            [pgJson(written)],
          );
        }
        await this.insertTags(c, newTags);
      }
      if (changes.move) await placeBookmarks(c, ids, ownerId, changes.move, now);
      return ids.length;
    });
  }

  /** Moves the ids to their owner's Trash, or deletes them for good (`permanent`). One transaction. */
  async bulkRemove(ids: number[], ownerId: number, permanent: boolean): Promise<number> {
    if (ids.length === 0) return 0;
    const now = isoNow(this.clock);
    return inTransaction(this.pool, async (c) => {
      if (permanent) {
        await run(c, 'DELETE FROM bookmarks WHERE id = ANY(?::bigint[])', [ids]);
      } else {
        await lockKeys(c, [orderKey(ownerId, TRASH)]);
        await all(c, 'SELECT id FROM bookmarks WHERE id = ANY(?::bigint[]) ORDER BY id FOR UPDATE', [ids]);
        await placeBookmarks(c, ids, ownerId, { collectionId: TRASH, ownerId }, now);
      }
      return ids.length;
    });
  }

  /**
   * The caller's saved (not removed) bookmarks whose `link_key` is one of `keys`, oldest first.
   * The one place that decides whose bookmarks count for duplicate checks.
   */
  async findSavedByKeys(userId: number, keys: string[]): Promise<SavedLink[]> {
    if (keys.length === 0) return [];
    const rows = await all<{ id: number; link: string; link_key: string }>(
      this.pool,
      'SELECT id, link, link_key FROM bookmarks WHERE user_id = ? AND link_key = ANY(?::text[]) AND removed = 0 ORDER BY id',
      [userId, [...new Set(keys)]],
    );
    return rows.map((r) => ({ _id: r.id, link: r.link, linkKey: r.link_key }));
  }

  /**
   * `pleaseParse: {}` on create/update: queues the background page parse (jobs.ts), all ids in
   * one statement; the job runner fills the fields the owner left empty.
   */
  async onPleaseParse(bookmarkIds: number[], on: 'create' | 'update'): Promise<void> {
    await enqueuePageParse(this.pool, bookmarkIds, on, this.clock.now());
  }

  private async applyHighlightChanges(c: pg.PoolClient, bookmarkId: number, ownerId: number, changes: HighlightChange[], now: string): Promise<void> {
    const current = await all<HighlightRow>(
      c,
      `SELECT ${HIGHLIGHT_COLUMNS} FROM highlights WHERE bookmark_id = ? ORDER BY created COLLATE "C", seq`,
      [bookmarkId],
    );
    const plan = planHighlightChanges(bookmarkId, current, changes, now);
    if (plan.remove.length) await run(c, 'DELETE FROM highlights WHERE id = ANY(?::text[])', [plan.remove]);
    if (plan.update.length) {
      await run(
        c,
        `UPDATE highlights h SET text = x.text, note = x.note, color = x.color, position = x.position, prefix = x.prefix,
                suffix = x.suffix, last_update = x.last_update
           FROM json_populate_recordset(NULL::highlights, ?::json) AS x WHERE h.id = x.id`,
        [pgJson(plan.update)],
      );
    }
    await this.insertHighlights(c, newHighlightRows(bookmarkId, ownerId, plan.add as NewHighlight[], now, this.clock));
  }
}
