import type pg from 'pg';
import type { ShareRole } from '../../../lib/api/constants.js';
import { noCaches, ReadCache, type CacheSignals } from '../../db/read-cache.js';
import { COLLECTION_WITH_ANCESTORS, SHARED_WITH_USER_TREE } from '../collection-tree-sql.js';
import type { AccessRepository, CollectionOwnerRow, OwnedTreeRow } from '../types/index.js';
import { all, one } from './query.js';

type Location = { user_id: number; collection_id: number };
type Grant = { collection_id: number; role: ShareRole };

/**
 * The facts the permission module decides with, on PostgreSQL. The ones every bookmark request
 * asks (where a bookmark is; a collection's chain; the caller's shares on it) are cached, each
 * emptied on any change to the table it is read from by any instance (change notifications, see
 * PgChangeFeed): a bookmark moved or a share changed through one instance holds on every instance
 * within the feed's bound (under 1 s).
 */
export class PgAccessRepository implements AccessRepository {
  private readonly locations: ReadCache<number, Location | undefined>;
  private readonly chains: ReadCache<number, CollectionOwnerRow[]>;
  private readonly grants: ReadCache<string, Grant[]>;
  private readonly shared: ReadCache<string, number | null>;

  constructor(
    private readonly pool: pg.Pool,
    signals: CacheSignals = noCaches,
  ) {
    this.locations = new ReadCache(signals(['bookmarks']), 50_000);
    this.chains = new ReadCache(signals(['collections']), 10_000);
    this.grants = new ReadCache(signals(['collaborators']), 10_000);
    this.shared = new ReadCache(signals(['collaborators']), 10_000);
  }

  async collection(id: number): Promise<CollectionOwnerRow | undefined> {
    return one<CollectionOwnerRow>(this.pool, 'SELECT id, user_id, parent_id, public FROM collections WHERE id = ?', [id]);
  }

  /** The collection and its ancestors, nearest first. */
  async collectionWithAncestors(id: number): Promise<CollectionOwnerRow[]> {
    return this.chains.getAsync(id, () => all<CollectionOwnerRow>(this.pool, COLLECTION_WITH_ANCESTORS, [id]));
  }

  async bookmarkLocation(id: number): Promise<Location | undefined> {
    return this.locations.getAsync(id, () => one<Location>(this.pool, 'SELECT user_id, collection_id FROM bookmarks WHERE id = ?', [id]));
  }

  async sharedRole(userId: number, collectionIds: number[]): Promise<ShareRole | null> {
    const grants = await this.sharedGrants(userId, collectionIds);
    return grants.length ? grants[0].role : null;
  }

  /** The caller's share rows on the chain (collection first, then ancestors), nearest first. */
  async sharedGrants(userId: number, collectionIds: number[]): Promise<Grant[]> {
    if (collectionIds.length === 0) return [];
    return this.grants.getAsync(`${userId}:${collectionIds.join(',')}`, () => all<Grant>(
      this.pool,
      `SELECT s.collection_id, s.role FROM collaborators s
         JOIN unnest(?::bigint[]) WITH ORDINALITY AS chain(id, at) ON chain.id = s.collection_id
        WHERE s.user_id = ? ORDER BY chain.at`,
      [collectionIds, userId],
    ));
  }

  /** The nearest collection of the chain that has any collaborator, or null. */
  async nearestShared(collectionIds: number[]): Promise<number | null> {
    if (collectionIds.length === 0) return null;
    return this.shared.getAsync(collectionIds.join(','), async () => {
      const row = await one<{ id: number }>(
        this.pool,
        `SELECT chain.id FROM unnest(?::bigint[]) WITH ORDINALITY AS chain(id, at)
          WHERE EXISTS (SELECT 1 FROM collaborators s WHERE s.collection_id = chain.id)
          ORDER BY chain.at LIMIT 1`,
        [collectionIds],
      );
      return row?.id ?? null;
    });
  }

  /** Ids of other users' collections shared with `userId`, including their descendants. */
  async sharedCollectionIds(userId: number): Promise<number[]> {
    const rows = await all<{ id: number }>(this.pool, `${SHARED_WITH_USER_TREE} SELECT DISTINCT id FROM tree ORDER BY id`, [userId, userId]);
    return rows.map((r) => r.id);
  }

  async ownedTree(userId: number): Promise<OwnedTreeRow[]> {
    return all<OwnedTreeRow>(
      this.pool,
      `SELECT c.id, c.parent_id, EXISTS (SELECT 1 FROM collaborators s WHERE s.collection_id = c.id) AS shared
         FROM collections c WHERE c.user_id = ?`,
      [userId],
    );
  }
}
