import type { Db } from '../db/open.js';

export interface CollectionOwnerRow {
  id: number;
  user_id: number;
  parent_id: number | null;
  public: number;
}

/** The facts the permission module decides with. SQL stays here; the rules live in services/permissions.ts. */
export class AccessRepository {
  constructor(private db: Db) {}

  async collection(id: number): Promise<CollectionOwnerRow | undefined> {
    return this.db.prepare('SELECT id, user_id, parent_id, public FROM collections WHERE id = ?').get(id) as
      | CollectionOwnerRow
      | undefined;
  }

  /** The collection and its ancestors, nearest first. */
  async collectionWithAncestors(id: number): Promise<CollectionOwnerRow[]> {
    return this.db
      .prepare(
        `WITH RECURSIVE chain(id, user_id, parent_id, public, depth) AS (
           SELECT id, user_id, parent_id, public, 0 FROM collections WHERE id = ?
           UNION ALL
           SELECT c.id, c.user_id, c.parent_id, c.public, chain.depth + 1
             FROM collections c JOIN chain ON c.id = chain.parent_id
            WHERE chain.depth < 64)
         SELECT id, user_id, parent_id, public FROM chain ORDER BY depth`,
      )
      .all(id) as CollectionOwnerRow[];
  }

  async bookmarkLocation(id: number): Promise<{ user_id: number; collection_id: number } | undefined> {
    return this.db.prepare('SELECT user_id, collection_id FROM bookmarks WHERE id = ?').get(id) as
      | { user_id: number; collection_id: number }
      | undefined;
  }

  /**
   * The role `userId` holds on any of `collectionIds` through sharing (nearest first wins), or null.
   * Sharing (a later migration) fills this in; until then nobody but the owner has a role.
   */
  async sharedRole(_userId: number, _collectionIds: number[]): Promise<'member' | 'viewer' | null> {
    return null;
  }

  /** Ids of other users' collections shared with `userId`, including their descendants. */
  async sharedCollectionIds(_userId: number): Promise<number[]> {
    return [];
  }
}
