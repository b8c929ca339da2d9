import type { ShareRole } from '../../../lib/api/constants.js';
import type { Db } from '../../db/open.js';
import { cacheSignalOf } from '../../db/change-tracker.js';
import { ReadCache } from '../../db/read-cache.js';
import { COLLECTION_WITH_ANCESTORS, SHARED_WITH_USER_TREE } from '../collection-tree-sql.js';
import { type CollectionOwnerRow, type AccessRepository, type OwnedTreeRow } from '../types/index.js';

/** The facts the permission module decides with. SQL stays here; the rules live in services/permissions.ts. */
export class SqliteAccessRepository implements AccessRepository {
  /** Where a bookmark is: asked on every bookmark read and write. Dropped on any write. */
  private readonly locations: ReadCache<number, { user_id: number; collection_id: number } | undefined>;

  constructor(private db: Db) {
    this.locations = new ReadCache(cacheSignalOf(db), 50_000);
  }

  async collection(id: number): Promise<CollectionOwnerRow | undefined> {
    return this.db.prepare('SELECT id, user_id, parent_id, public FROM collections WHERE id = ?').get(id) as
      | CollectionOwnerRow
      | undefined;
  }

  /** The collection and its ancestors, nearest first. */
  async collectionWithAncestors(id: number): Promise<CollectionOwnerRow[]> {
    return this.db.prepare(COLLECTION_WITH_ANCESTORS).all(id) as CollectionOwnerRow[];
  }

  async bookmarkLocation(id: number): Promise<{ user_id: number; collection_id: number } | undefined> {
    return this.locations.get(
      id,
      () => this.db.prepare('SELECT user_id, collection_id FROM bookmarks WHERE id = ?').get(id) as { user_id: number; collection_id: number } | undefined,
    );
  }

  /**
   * The role `userId` holds on any of `collectionIds` through sharing (nearest first wins), or null.
   * `collectionIds` is a chain: the collection first, then its ancestors.
   */
  async sharedRole(userId: number, collectionIds: number[]): Promise<ShareRole | null> {
    const grants = await this.sharedGrants(userId, collectionIds);
    return grants.length ? grants[0].role : null;
  }

  /** The caller's share rows on the chain `collectionIds` (collection first, then ancestors), nearest first. */
  async sharedGrants(userId: number, collectionIds: number[]): Promise<{ collection_id: number; role: ShareRole }[]> {
    if (collectionIds.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT collection_id, role FROM collaborators
          WHERE user_id = ? AND collection_id IN (${collectionIds.map(() => '?').join(',')})`,
      )
      .all(userId, ...collectionIds) as { collection_id: number; role: ShareRole }[];
    const at = new Map(collectionIds.map((id, i) => [id, i]));
    return rows.sort((a, b) => at.get(a.collection_id)! - at.get(b.collection_id)!);
  }

  /** The nearest collection of the chain `collectionIds` that has any collaborator, or null. */
  async nearestShared(collectionIds: number[]): Promise<number | null> {
    if (collectionIds.length === 0) return null;
    const rows = this.db
      .prepare(
        `SELECT DISTINCT collection_id FROM collaborators
          WHERE collection_id IN (${collectionIds.map(() => '?').join(',')})`,
      )
      .all(...collectionIds) as { collection_id: number }[];
    const shared = new Set(rows.map((r) => r.collection_id));
    return collectionIds.find((id) => shared.has(id)) ?? null;
  }

  /** Ids of other users' collections shared with `userId`, including their descendants. */
  async sharedCollectionIds(userId: number): Promise<number[]> {
    const rows = this.db.prepare(`${SHARED_WITH_USER_TREE} SELECT DISTINCT id FROM tree ORDER BY id`).all(userId, userId) as { id: number }[];
    return rows.map((r) => r.id);
  }

  async ownedTree(userId: number): Promise<OwnedTreeRow[]> {
    const rows = this.db
      .prepare(
        `SELECT c.id, c.parent_id, EXISTS (SELECT 1 FROM collaborators s WHERE s.collection_id = c.id) AS shared
           FROM collections c WHERE c.user_id = ?`,
      )
      .all(userId) as { id: number; parent_id: number | null; shared: 0 | 1 }[];
    return rows.map((r) => ({ id: r.id, parent_id: r.parent_id, shared: r.shared === 1 }));
  }
}
