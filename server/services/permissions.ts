import { ACCESS_LEVEL, SYSTEM_COLLECTION_IDS } from '../../lib/api/constants.js';
import { ApiError, forbidden, notFound } from '../errors.js';
import type { AccessRepository } from '../repositories/access.js';

export type Role = 'owner' | 'member' | 'viewer' | 'public' | 'none';
export type Need = 'read' | 'write' | 'owner';

export interface CollectionAccess {
  collectionId: number;
  /** Whose data this is: bookmarks created here belong to this user. */
  ownerId: number;
  role: Role;
  level: number;
  /** Whether the caller may drag (reorder, move) the collection. */
  draggable: boolean;
}

const LEVEL: Record<Role, number> = {
  owner: ACCESS_LEVEL.owner,
  member: ACCESS_LEVEL.member,
  viewer: ACCESS_LEVEL.viewer,
  public: ACCESS_LEVEL.public,
  none: ACCESS_LEVEL.none,
};

function allows(role: Role, need: Need): boolean {
  if (need === 'owner') return role === 'owner';
  if (need === 'write') return role === 'owner' || role === 'member';
  return role !== 'none';
}

const unauthenticated = () => new ApiError(401, 'Sign in first: send an Authorization: Bearer <token> header.');

/**
 * The one place that decides who may do what with a collection or bookmark. Routes call
 * `requireCollection` / `requireBookmark`; nothing else repeats these rules.
 *
 * Levels (`collection.access.level`): 4 owner, 3 member (read and write), 2 viewer (read only),
 * 1 anyone through a public collection (read only), 0 none.
 */
export class Permissions {
  constructor(private access: AccessRepository) {}

  /** The caller's access to a collection. System ids (0, -1, -99) are always the caller's own. */
  async collection(userId: number | null, collectionId: number): Promise<CollectionAccess> {
    if ((SYSTEM_COLLECTION_IDS as readonly number[]).includes(collectionId)) {
      if (userId === null) throw unauthenticated();
      return { collectionId, ownerId: userId, role: 'owner', level: LEVEL.owner, draggable: false };
    }
    const chain = await this.access.collectionWithAncestors(collectionId);
    if (chain.length === 0) throw notFound();
    const ownerId = chain[0].user_id;
    let role: Role = 'none';
    if (userId !== null && ownerId === userId) role = 'owner';
    else if (userId !== null) {
      const shared = await this.access.sharedRole(userId, chain.map((c) => c.id));
      if (shared) role = shared;
    }
    if (role === 'none' && chain[0].public) role = 'public';
    return { collectionId, ownerId, role, level: LEVEL[role], draggable: role === 'owner' || role === 'member' };
  }

  /** Throws 401 (no token and not public), 403 (no right) or 404 (no such collection). */
  async requireCollection(userId: number | null, collectionId: number, need: Need): Promise<CollectionAccess> {
    const access = await this.collection(userId, collectionId);
    if (!allows(access.role, need)) {
      if (userId === null) throw unauthenticated();
      throw forbidden(
        need === 'read' ? 'You do not have access to this collection' : 'You do not have permission to change this collection',
      );
    }
    return access;
  }

  /** Access to a bookmark is access to the collection it is in (Unsorted and Trash: its owner only). */
  async requireBookmark(userId: number | null, bookmarkId: number, need: Need): Promise<CollectionAccess> {
    const loc = await this.access.bookmarkLocation(bookmarkId);
    if (!loc) throw notFound();
    if (loc.collection_id < 0) {
      if (userId === null) throw unauthenticated();
      if (loc.user_id !== userId) throw forbidden('You do not have access to this bookmark');
      return { collectionId: loc.collection_id, ownerId: userId, role: 'owner', level: LEVEL.owner, draggable: true };
    }
    return this.requireCollection(userId, loc.collection_id, need);
  }

  /** Collections of other users the caller can read through sharing (for search across "all"). */
  async sharedCollectionIds(userId: number): Promise<number[]> {
    return this.access.sharedCollectionIds(userId);
  }
}
