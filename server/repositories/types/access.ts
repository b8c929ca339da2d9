// The facts the permission rules (services/permissions.ts) decide with.
import type { ShareRole } from '../../../lib/api/constants.js';
import type { CollectionOwnerRow } from './collections.js';

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
  /**
   * Every collection `userId` owns, with its parent and whether it has any collaborator: enough to
   * work out the owner's access to the whole tree from one read.
   */
  ownedTree(userId: number): Promise<OwnedTreeRow[]>;
}

export interface OwnedTreeRow {
  id: number;
  parent_id: number | null;
  shared: boolean;
}
