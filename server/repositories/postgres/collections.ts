import type pg from 'pg';
import { TRASH, type CollectionSort } from '../../../lib/api/constants.js';
import { isoNow, type Clock } from '../../clock.js';
import { collectionColumns, collectionsToClean, INSERT_COLLECTION, newCollectionValues, siblingSorts, type ReorderRow } from '../collection-rules.js';
import { COLLECTION_AND_DESCENDANTS, COLLECTION_ORDER, COLLECTION_WITH_COUNT, REORDER_ROWS, SHARED_WITH_USER_TREE } from '../collection-tree-sql.js';
import { CollectionCycleError, type CollectionFields, type CollectionRow, type CollectionsRepository } from '../types/index.js';
import { all, lockKeys, one, pgJson, run, type Queryable } from './query.js';
import { inTransaction } from './transaction.js';

/** The advisory lock of one user's collection tree: held by every write that reads the tree and then changes it. */
const treeKey = (userId: number) => `collection-tree:${userId}`;

/**
 * Collections on PostgreSQL: tree (recursive CTEs), counts, ordering, merge, clean, with the same
 * records, order and errors as on SQLite.
 *
 * SQLite's single writer made "read the tree, then change it" safe by itself; here such writes
 * first take the tree lock of every owner involved (in a fixed order), so two instances cannot,
 * say, move A under B and B under A at once (a cycle), or give two new siblings the same `sort`.
 */
export class PgCollectionsRepository implements CollectionsRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  async byId(id: number): Promise<CollectionRow | undefined> {
    return this.byIdOn(this.pool, id);
  }

  private async byIdOn(c: Queryable, id: number): Promise<CollectionRow | undefined> {
    return one<CollectionRow>(c, `${COLLECTION_WITH_COUNT} WHERE c.id = ?`, [id]);
  }

  /** The user's own collections with no parent. */
  async roots(userId: number): Promise<CollectionRow[]> {
    return all<CollectionRow>(this.pool, `${COLLECTION_WITH_COUNT} WHERE c.user_id = ? AND c.parent_id IS NULL ${COLLECTION_ORDER}`, [userId]);
  }

  /** The user's own nested collections (those with a parent), at any depth. */
  async children(userId: number): Promise<CollectionRow[]> {
    return all<CollectionRow>(this.pool, `${COLLECTION_WITH_COUNT} WHERE c.user_id = ? AND c.parent_id IS NOT NULL ${COLLECTION_ORDER}`, [userId]);
  }

  /** Other users' collections shared with `userId` and everything below them, by sort descending. */
  async sharedWith(userId: number): Promise<CollectionRow[]> {
    return all<CollectionRow>(this.pool, `${SHARED_WITH_USER_TREE} ${COLLECTION_WITH_COUNT} WHERE c.id IN (SELECT id FROM tree) ${COLLECTION_ORDER}`, [
      userId,
      userId,
    ]);
  }

  /** The collection and all collections below it (the collection first). Empty when unknown. */
  async descendantIds(id: number): Promise<number[]> {
    return this.descendants(this.pool, id);
  }

  private async descendants(c: Queryable, id: number): Promise<number[]> {
    return (await all<{ id: number }>(c, COLLECTION_AND_DESCENDANTS, [id])).map((r) => r.id);
  }

  /** Takes the tree locks of the owners of `collectionIds` and of `userIds`. */
  private async lockTrees(c: pg.PoolClient, collectionIds: number[], userIds: number[] = []): Promise<void> {
    const owners = collectionIds.length
      ? (await all<{ user_id: number }>(c, 'SELECT DISTINCT user_id FROM collections WHERE id = ANY(?::bigint[])', [collectionIds])).map((r) => r.user_id)
      : [];
    await lockKeys(c, [...owners, ...userIds].map(treeKey));
  }

  private async nextSort(c: Queryable, userId: number, parentId: number | null): Promise<number> {
    const row = await one<{ m: number | null }>(
      c,
      parentId === null
        ? 'SELECT max(sort) AS m FROM collections WHERE user_id = ? AND parent_id IS NULL'
        : 'SELECT max(sort) AS m FROM collections WHERE user_id = ? AND parent_id = ?',
      parentId === null ? [userId] : [userId, parentId],
    );
    return row?.m == null ? 0 : Math.floor(row.m) + 1;
  }

  /** Creates a collection owned by `userId` (the owner of `parentId` when nested). */
  async create(userId: number, input: CollectionFields & { title: string; parentId: number | null }): Promise<CollectionRow> {
    const now = isoNow(this.clock);
    return inTransaction(this.pool, async (c) => {
      await lockKeys(c, [treeKey(userId)]);
      const sort = input.sort ?? (await this.nextSort(c, userId, input.parentId));
      const created = await one<{ id: number }>(c, `${INSERT_COLLECTION} RETURNING id`, newCollectionValues(userId, input, sort, now));
      return (await this.byIdOn(c, created!.id))!;
    });
  }

  /**
   * Changes fields and, when `parentId` is given (null = root), moves the collection. A move into
   * the collection itself or one of its descendants throws CollectionCycleError and changes nothing.
   */
  async update(id: number, fields: CollectionFields, move?: { parentId: number | null }): Promise<CollectionRow | undefined> {
    return inTransaction(this.pool, async (c) => {
      if (move) await this.lockTrees(c, move.parentId === null ? [id] : [id, move.parentId]);
      const current = await one<{ user_id: number; parent_id: number | null; sort: number }>(
        c,
        'SELECT user_id, parent_id, sort FROM collections WHERE id = ? FOR UPDATE',
        [id],
      );
      if (!current) return undefined;
      let parentId = current.parent_id;
      let sort = fields.sort ?? current.sort;
      if (move && move.parentId !== current.parent_id) {
        if (move.parentId !== null && (await this.descendants(c, id)).includes(move.parentId)) throw new CollectionCycleError();
        parentId = move.parentId;
        sort = fields.sort ?? (await this.nextSort(c, current.user_id, parentId));
      }
      const set: string[] = ['parent_id = ?', 'sort = ?', 'last_update = ?'];
      const args: unknown[] = [parentId, sort, isoNow(this.clock)];
      for (const [column, value] of collectionColumns(fields)) {
        set.push(`${column} = ?`);
        args.push(value);
      }
      await run(c, `UPDATE collections SET ${set.join(', ')} WHERE id = ?`, [...args, id]);
      return this.byIdOn(c, id);
    });
  }

  /**
   * Removes the collections with all their descendants in one transaction; every bookmark in them
   * moves to Trash. Returns how many bookmarks moved.
   */
  async removeWithDescendants(ids: number[]): Promise<{ collections: number; bookmarksMoved: number }> {
    return inTransaction(this.pool, async (c) => {
      await this.lockTrees(c, ids);
      const every = await all<{ id: number }>(
        c,
        `WITH RECURSIVE tree(id, depth) AS (
           SELECT id, 0 FROM collections WHERE id = ANY(?::bigint[])
           UNION
           SELECT k.id, tree.depth + 1 FROM collections k JOIN tree ON k.parent_id = tree.id WHERE tree.depth < 64)
         SELECT DISTINCT id FROM tree`,
        [ids],
      );
      return this.removeExactly(c, every.map((r) => r.id));
    });
  }

  /**
   * Removes exactly the listed collections (DELETE /collections). Nested collections that are not
   * listed are kept: each moves under its nearest ancestor that survives, or to the root.
   * Bookmarks of removed collections move to Trash.
   */
  async removeListed(ids: number[]): Promise<{ collections: number; bookmarksMoved: number }> {
    const now = isoNow(this.clock);
    return inTransaction(this.pool, async (c) => {
      await this.lockTrees(c, ids);
      const listed = new Set(ids);
      // Each listed collection's parent (listed ones may nest in each other).
      const parentOf = new Map(
        (await all<{ id: number; parent_id: number | null }>(c, 'SELECT id, parent_id FROM collections WHERE id = ANY(?::bigint[])', [ids])).map((r) => [
          r.id,
          r.parent_id,
        ]),
      );
      const survivors = await all<{ id: number; parent_id: number }>(
        c,
        'SELECT id, parent_id FROM collections WHERE parent_id = ANY(?::bigint[]) AND NOT (id = ANY(?::bigint[])) ORDER BY id',
        [ids, ids],
      );
      const moves = survivors.map((child) => {
        let ancestor = parentOf.get(child.parent_id) ?? null;
        for (let guard = 0; ancestor !== null && listed.has(ancestor) && guard < 1000; guard++) ancestor = parentOf.get(ancestor) ?? null;
        return { id: child.id, parent_id: ancestor };
      });
      if (moves.length) {
        await run(
          c,
          `UPDATE collections k SET parent_id = x.parent_id, last_update = ?
             FROM json_to_recordset(?::json) AS x(id bigint, parent_id bigint) WHERE k.id = x.id`,
          [now, pgJson(moves)],
        );
      }
      return this.removeExactly(c, [...listed]);
    });
  }

  /** Inside a transaction: bookmarks of `ids` go to Trash, then the rows go. */
  private async removeExactly(c: pg.PoolClient, ids: number[]): Promise<{ collections: number; bookmarksMoved: number }> {
    if (ids.length === 0) return { collections: 0, bookmarksMoved: 0 };
    const present = (await all<{ id: number }>(c, 'SELECT id FROM collections WHERE id = ANY(?::bigint[]) FOR UPDATE', [ids])).map((r) => r.id);
    if (present.length === 0) return { collections: 0, bookmarksMoved: 0 };
    const bookmarksMoved = await run(
      c,
      `UPDATE bookmarks SET removed = 1, collection_id = ${TRASH}, last_update = ? WHERE collection_id = ANY(?::bigint[])`,
      [isoNow(this.clock), present],
    );
    await run(c, 'DELETE FROM collections WHERE id = ANY(?::bigint[])', [present]);
    return { collections: present.length, bookmarksMoved };
  }

  /** Deletes every bookmark in the user's Trash for good (highlights and tags cascade). */
  async emptyTrash(userId: number): Promise<number> {
    return run(this.pool, `DELETE FROM bookmarks WHERE user_id = ? AND collection_id = ${TRASH}`, [userId]);
  }

  /**
   * Rewrites `sort` of all the user's collections so that, within each parent, they list in the
   * asked order: `title` A to Z, `-title` Z to A, `-count` most bookmarks first (then by title).
   */
  async reorderAll(userId: number, order: CollectionSort): Promise<void> {
    await inTransaction(this.pool, async (c) => {
      await lockKeys(c, [treeKey(userId)]);
      const sorts = siblingSorts(await all<ReorderRow>(c, REORDER_ROWS, [userId]), order);
      if (sorts.length === 0) return;
      await run(
        c,
        `UPDATE collections k SET sort = x.sort FROM json_to_recordset(?::json) AS x(id bigint, sort float8) WHERE k.id = x.id`,
        [pgJson(sorts.map(([id, sort]) => ({ id, sort })))],
      );
    });
  }

  /** Expands or collapses all of the user's collections. */
  async setExpandedAll(userId: number, expanded: boolean): Promise<void> {
    await run(this.pool, 'UPDATE collections SET expanded = ? WHERE user_id = ?', [expanded ? 1 : 0, userId]);
  }

  /**
   * Merges the listed collections into `to` (a collection id, or -1 Unsorted): their bookmarks move
   * to `to`, their child collections that are not listed move under `to` (to the root when `to` is
   * Unsorted), after `to`'s existing children, and the listed collections are removed.
   * Returns how many bookmarks moved.
   */
  async merge(userId: number, to: number, ids: number[]): Promise<number> {
    const now = isoNow(this.clock);
    return inTransaction(this.pool, async (c) => {
      await this.lockTrees(c, to > 0 ? [...ids, to] : ids, [userId]);
      const listed = [...new Set(ids)];
      const newParent = to > 0 ? to : null;
      const moved = await run(c, 'UPDATE bookmarks SET collection_id = ?, last_update = ? WHERE collection_id = ANY(?::bigint[])', [to, now, listed]);
      const orphans = (
        await all<{ id: number }>(c, `SELECT c.id FROM collections c WHERE c.parent_id = ANY(?::bigint[]) AND NOT (c.id = ANY(?::bigint[])) ${COLLECTION_ORDER}`, [
          listed,
          listed,
        ])
      ).map((r) => r.id);
      const min = await one<{ m: number | null }>(
        c,
        newParent === null
          ? 'SELECT min(sort) AS m FROM collections WHERE user_id = ? AND parent_id IS NULL'
          : 'SELECT min(sort) AS m FROM collections WHERE user_id = ? AND parent_id = ?',
        newParent === null ? [userId] : [userId, newParent],
      );
      const top = min?.m == null ? orphans.length - 1 : Math.floor(min.m) - 1;
      if (orphans.length) {
        await run(
          c,
          `UPDATE collections k SET parent_id = ?, sort = ?::float8 - x.at + 1, last_update = ?
             FROM unnest(?::bigint[]) WITH ORDINALITY AS x(id, at) WHERE k.id = x.id`,
          [newParent, top, now, orphans],
        );
      }
      await run(c, 'DELETE FROM collections WHERE id = ANY(?::bigint[])', [listed]);
      if (newParent !== null) await run(c, 'UPDATE collections SET last_update = ? WHERE id = ?', [now, newParent]);
      return moved;
    });
  }

  /**
   * Removes all of the user's collections that hold no bookmarks and have no descendant that holds
   * any. Returns how many collections were removed.
   */
  async clean(userId: number): Promise<number> {
    return inTransaction(this.pool, async (c) => {
      await lockKeys(c, [treeKey(userId)]);
      const rows = await all<{ id: number; parent_id: number | null; has: boolean }>(
        c,
        `SELECT c.id, c.parent_id, EXISTS (SELECT 1 FROM bookmarks b WHERE b.collection_id = c.id) AS has
           FROM collections c WHERE c.user_id = ? FOR UPDATE OF c`,
        [userId],
      );
      const gone = collectionsToClean(rows);
      if (gone.length) await run(c, 'DELETE FROM collections WHERE id = ANY(?::bigint[])', [gone]);
      return gone.length;
    });
  }
}
