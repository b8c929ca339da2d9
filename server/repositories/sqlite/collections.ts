import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import { isoNow } from '../../clock.js';
import { TRASH, type CollectionSort } from '../../../lib/api/constants.js';
import type { FullTextIndex } from './fts.js';
import { COLLECTION_AND_DESCENDANTS, COLLECTION_ORDER, COLLECTION_WITH_COUNT, REORDER_ROWS, SHARED_WITH_USER_TREE } from '../collection-tree-sql.js';
import { collectionColumns, collectionsToClean, INSERT_COLLECTION, newCollectionValues, siblingSorts, type ReorderRow } from '../collection-rules.js';
import { CollectionCycleError, type CollectionFields, type CollectionRow, type CollectionsRepository } from '../types/index.js';

const SELECT_WITH_COUNT = COLLECTION_WITH_COUNT;
const ORDER = COLLECTION_ORDER;

/**
 * Collections: tree, counts, ordering, merge, clean.
 *
 * Ordering: `sort` is a number, larger first among siblings. A new (or newly moved) collection
 * without an explicit `sort` gets (largest sort among its new siblings) + 1, so it appears first
 * under its parent. Reordering all collections (PUT /collections) rewrites the values of each
 * sibling group to n-1 ... 0.
 */
export class SqliteCollectionsRepository implements CollectionsRepository {
  constructor(protected db: Db, protected clock: Clock, protected fts: FullTextIndex) {}

  async byId(id: number): Promise<CollectionRow | undefined> {
    return this.db.prepare(`${SELECT_WITH_COUNT} WHERE c.id = ?`).get(id) as CollectionRow | undefined;
  }

  /** The user's own collections with no parent. */
  async roots(userId: number): Promise<CollectionRow[]> {
    return this.db.prepare(`${SELECT_WITH_COUNT} WHERE c.user_id = ? AND c.parent_id IS NULL ${ORDER}`).all(userId) as CollectionRow[];
  }

  /** The user's own nested collections (those with a parent), at any depth. */
  async children(userId: number): Promise<CollectionRow[]> {
    return this.db.prepare(`${SELECT_WITH_COUNT} WHERE c.user_id = ? AND c.parent_id IS NOT NULL ${ORDER}`).all(userId) as CollectionRow[];
  }

  /**
   * Other users' collections shared with `userId` and everything below them, by sort descending.
   */
  async sharedWith(userId: number): Promise<CollectionRow[]> {
    return this.db
      .prepare(`${SHARED_WITH_USER_TREE} ${SELECT_WITH_COUNT} WHERE c.id IN (SELECT id FROM tree) ${ORDER}`)
      .all(userId, userId) as CollectionRow[];
  }

  /** The collection and all collections below it (the collection first). Empty when unknown. */
  async descendantIds(id: number): Promise<number[]> {
    return this.descendantsSync(id);
  }

  private descendantsSync(id: number): number[] {
    return (this.db.prepare(COLLECTION_AND_DESCENDANTS).all(id) as { id: number }[]).map((r) => r.id);
  }

  private nextSort(userId: number, parentId: number | null): number {
    const row = this.db
      .prepare(
        parentId === null
          ? 'SELECT max(sort) AS m FROM collections WHERE user_id = ? AND parent_id IS NULL'
          : 'SELECT max(sort) AS m FROM collections WHERE user_id = ? AND parent_id = ?',
      )
      .get(...(parentId === null ? [userId] : [userId, parentId])) as { m: number | null };
    return row.m === null ? 0 : Math.floor(row.m) + 1;
  }

  /** Creates a collection owned by `userId` (the owner of `parentId` when nested). */
  async create(userId: number, input: CollectionFields & { title: string; parentId: number | null }): Promise<CollectionRow> {
    const now = isoNow(this.clock);
    const id = this.db.transaction(() => {
      const sort = input.sort ?? this.nextSort(userId, input.parentId);
      const info = this.db.prepare(INSERT_COLLECTION).run(...newCollectionValues(userId, input, sort, now));
      return Number(info.lastInsertRowid);
    })();
    return (await this.byId(id))!;
  }

  /**
   * Changes fields and, when `parentId` is given (null = root), moves the collection. A move into
   * the collection itself or one of its descendants throws CollectionCycleError and changes nothing.
   */
  async update(id: number, fields: CollectionFields, move?: { parentId: number | null }): Promise<CollectionRow | undefined> {
    this.db.transaction(() => {
      const current = this.db.prepare('SELECT user_id, parent_id, sort FROM collections WHERE id = ?').get(id) as
        | { user_id: number; parent_id: number | null; sort: number }
        | undefined;
      if (!current) return;
      let parentId = current.parent_id;
      let sort = fields.sort ?? current.sort;
      if (move && move.parentId !== current.parent_id) {
        if (move.parentId !== null && this.descendantsSync(id).includes(move.parentId)) throw new CollectionCycleError();
        parentId = move.parentId;
        sort = fields.sort ?? this.nextSort(current.user_id, parentId);
      }
      const set: string[] = ['parent_id = ?', 'sort = ?', 'last_update = ?'];
      const args: unknown[] = [parentId, sort, isoNow(this.clock)];
      for (const [column, value] of collectionColumns(fields)) {
        set.push(`${column} = ?`);
        args.push(value);
      }
      this.db.prepare(`UPDATE collections SET ${set.join(', ')} WHERE id = ?`).run(...args, id);
    })();
    return this.byId(id);
  }

  /**
   * Removes the collections with all their descendants in one transaction; every bookmark in them
   * moves to Trash. Returns how many bookmarks moved.
   */
  async removeWithDescendants(ids: number[]): Promise<{ collections: number; bookmarksMoved: number }> {
    return this.db.transaction(() => {
      const all = new Set<number>();
      for (const id of ids) for (const d of this.descendantsSync(id)) all.add(d);
      return this.removeExactly([...all]);
    })();
  }

  /**
   * Removes exactly the listed collections (DELETE /collections). Nested collections that are not
   * listed are kept: each moves under its nearest ancestor that survives, or to the root.
   * Bookmarks of removed collections move to Trash.
   */
  async removeListed(ids: number[]): Promise<{ collections: number; bookmarksMoved: number }> {
    return this.db.transaction(() => {
      const listed = new Set(ids);
      const parentOf = this.db.prepare('SELECT parent_id FROM collections WHERE id = ?');
      const childrenOf = this.db.prepare('SELECT id FROM collections WHERE parent_id = ?');
      const reparent = this.db.prepare('UPDATE collections SET parent_id = ?, last_update = ? WHERE id = ?');
      const now = isoNow(this.clock);
      for (const id of listed) {
        for (const { id: child } of childrenOf.all(id) as { id: number }[]) {
          if (listed.has(child)) continue;
          let ancestor = (parentOf.get(id) as { parent_id: number | null } | undefined)?.parent_id ?? null;
          while (ancestor !== null && listed.has(ancestor)) {
            ancestor = (parentOf.get(ancestor) as { parent_id: number | null } | undefined)?.parent_id ?? null;
          }
          reparent.run(ancestor, now, child);
        }
      }
      return this.removeExactly([...listed]);
    })();
  }

  /** Must run inside a transaction. Bookmarks of `ids` go to Trash, then the rows go. */
  private removeExactly(ids: number[]): { collections: number; bookmarksMoved: number } {
    if (ids.length === 0) return { collections: 0, bookmarksMoved: 0 };
    const now = isoNow(this.clock);
    const toTrash = this.db.prepare(
      'UPDATE bookmarks SET removed = 1, collection_id = ?, last_update = ? WHERE collection_id = ?',
    );
    const exists = this.db.prepare('SELECT 1 FROM collections WHERE id = ?');
    const del = this.db.prepare('DELETE FROM collections WHERE id = ?');
    const present = ids.filter((id) => exists.get(id));
    let bookmarksMoved = 0;
    for (const id of present) bookmarksMoved += toTrash.run(TRASH, now, id).changes;
    // Children of a deleted row cascade; every id here is deleted explicitly all the same.
    for (const id of present) del.run(id);
    return { collections: present.length, bookmarksMoved };
  }

  /** Deletes every bookmark in the user's Trash for good (highlights and tags cascade). */
  async emptyTrash(userId: number): Promise<number> {
    return this.db.transaction(() => {
      const ids = (
        this.db.prepare('SELECT id FROM bookmarks WHERE user_id = ? AND collection_id = ?').all(userId, TRASH) as { id: number }[]
      ).map((r) => r.id);
      const del = this.db.prepare('DELETE FROM bookmarks WHERE id = ?');
      for (const id of ids) del.run(id);
      this.fts.drop(ids);
      return ids.length;
    })();
  }

  /**
   * Rewrites `sort` of all the user's collections so that, within each parent, they list in the
   * asked order: `title` A to Z, `-title` Z to A, `-count` most bookmarks first (then by title).
   */
  async reorderAll(userId: number, order: CollectionSort): Promise<void> {
    this.db.transaction(() => {
      const rows = this.db.prepare(REORDER_ROWS).all(userId) as ReorderRow[];
      const set = this.db.prepare('UPDATE collections SET sort = ? WHERE id = ?');
      for (const [id, sort] of siblingSorts(rows, order)) set.run(sort, id);
    })();
  }

  /** Expands or collapses all of the user's collections. */
  async setExpandedAll(userId: number, expanded: boolean): Promise<void> {
    this.db.prepare('UPDATE collections SET expanded = ? WHERE user_id = ?').run(expanded ? 1 : 0, userId);
  }

  /**
   * Merges the listed collections into `to` (a collection id, or -1 Unsorted): their bookmarks move
   * to `to`, their child collections that are not listed move under `to` (to the root when `to` is
   * Unsorted), after `to`'s existing children, and the listed collections are removed.
   * Returns how many bookmarks moved.
   */
  async merge(userId: number, to: number, ids: number[]): Promise<number> {
    return this.db.transaction(() => {
      const listed = new Set(ids);
      const now = isoNow(this.clock);
      const newParent = to > 0 ? to : null;
      const moveBookmarks = this.db.prepare('UPDATE bookmarks SET collection_id = ?, last_update = ? WHERE collection_id = ?');
      let moved = 0;
      for (const id of listed) moved += moveBookmarks.run(to, now, id).changes;

      const orphans = (
        this.db
          .prepare(
            `SELECT id FROM collections WHERE parent_id IN (${[...listed].map(() => '?').join(',')}) ORDER BY sort DESC, id ASC`,
          )
          .all(...listed) as { id: number }[]
      )
        .map((r) => r.id)
        .filter((id) => !listed.has(id));
      const min = this.db
        .prepare(
          newParent === null
            ? 'SELECT min(sort) AS m FROM collections WHERE user_id = ? AND parent_id IS NULL'
            : 'SELECT min(sort) AS m FROM collections WHERE user_id = ? AND parent_id = ?',
        )
        .get(...(newParent === null ? [userId] : [userId, newParent])) as { m: number | null };
      let sort = min.m === null ? orphans.length - 1 : Math.floor(min.m) - 1;
      const reparent = this.db.prepare('UPDATE collections SET parent_id = ?, sort = ?, last_update = ? WHERE id = ?');
      for (const id of orphans) reparent.run(newParent, sort--, now, id);

      const del = this.db.prepare('DELETE FROM collections WHERE id = ?');
      for (const id of listed) del.run(id);
      if (newParent !== null) this.db.prepare('UPDATE collections SET last_update = ? WHERE id = ?').run(now, newParent);
      return moved;
    })();
  }

  /**
   * Removes all of the user's collections that hold no bookmarks and have no descendant that holds
   * any. Returns how many collections were removed.
   */
  async clean(userId: number): Promise<number> {
    return this.db.transaction(() => {
      const rows = this.db
        .prepare(
          `SELECT c.id, c.parent_id,
                  EXISTS (SELECT 1 FROM bookmarks b WHERE b.collection_id = c.id) AS has
             FROM collections c WHERE c.user_id = ?`,
        )
        .all(userId) as { id: number; parent_id: number | null; has: number }[];
      const gone = collectionsToClean(rows);
      const del = this.db.prepare('DELETE FROM collections WHERE id = ?');
      for (const id of gone) del.run(id);
      return gone.length;
    })();
  }
}
