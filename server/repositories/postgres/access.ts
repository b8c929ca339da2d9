import type pg from 'pg';
import type { ShareRole } from '../../../lib/api/constants.js';
import { COLLECTION_WITH_ANCESTORS, SHARED_WITH_USER_TREE } from '../collection-tree-sql.js';
import type { AccessRepository, CollectionOwnerRow } from '../types.js';
import { all, one } from './query.js';

/**
 * The facts the permission module decides with, on PostgreSQL. Nothing is cached in the process:
 * another instance may move a bookmark or change a share at any moment, and every instance must
 * see it at once.
 */
export class PgAccessRepository implements AccessRepository {
  constructor(private readonly pool: pg.Pool) {}

  async collection(id: number): Promise<CollectionOwnerRow | undefined> {
    return one<CollectionOwnerRow>(this.pool, 'SELECT id, user_id, parent_id, public FROM collections WHERE id = ?', [id]);
  }

  /** The collection and its ancestors, nearest first. */
  async collectionWithAncestors(id: number): Promise<CollectionOwnerRow[]> {
    return all<CollectionOwnerRow>(this.pool, COLLECTION_WITH_ANCESTORS, [id]);
  }

  async bookmarkLocation(id: number): Promise<{ user_id: number; collection_id: number } | undefined> {
    return one(this.pool, 'SELECT user_id, collection_id FROM bookmarks WHERE id = ?', [id]);
  }

  async sharedRole(userId: number, collectionIds: number[]): Promise<ShareRole | null> {
    const grants = await this.sharedGrants(userId, collectionIds);
    return grants.length ? grants[0].role : null;
  }

  /** The caller's share rows on the chain (collection first, then ancestors), nearest first. */
  async sharedGrants(userId: number, collectionIds: number[]): Promise<{ collection_id: number; role: ShareRole }[]> {
    if (collectionIds.length === 0) return [];
    return all(
      this.pool,
      `SELECT s.collection_id, s.role FROM collaborators s
         JOIN unnest(?::bigint[]) WITH ORDINALITY AS chain(id, at) ON chain.id = s.collection_id
        WHERE s.user_id = ? ORDER BY chain.at`,
      [collectionIds, userId],
    );
  }

  /** The nearest collection of the chain that has any collaborator, or null. */
  async nearestShared(collectionIds: number[]): Promise<number | null> {
    if (collectionIds.length === 0) return null;
    const row = await one<{ id: number }>(
      this.pool,
      `SELECT chain.id FROM unnest(?::bigint[]) WITH ORDINALITY AS chain(id, at)
        WHERE EXISTS (SELECT 1 FROM collaborators s WHERE s.collection_id = chain.id)
        ORDER BY chain.at LIMIT 1`,
      [collectionIds],
    );
    return row?.id ?? null;
  }

  /** Ids of other users' collections shared with `userId`, including their descendants. */
  async sharedCollectionIds(userId: number): Promise<number[]> {
    const rows = await all<{ id: number }>(this.pool, `${SHARED_WITH_USER_TREE} SELECT DISTINCT id FROM tree ORDER BY id`, [userId, userId]);
    return rows.map((r) => r.id);
  }
}
