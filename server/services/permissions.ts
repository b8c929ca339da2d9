import { ACCESS_LEVEL, SYSTEM_COLLECTION_IDS, TRASH } from '../../lib/api/constants.js';
import { ApiError, badRequest, forbidden, notFound } from '../errors.js';
import type { AccessRepository } from '../repositories/index.js';

type Role = 'owner' | 'member' | 'viewer' | 'public' | 'none';
export type Need = 'read' | 'write' | 'owner';

export interface CollectionAccess {
  collectionId: number;
  /** Whose data this is: bookmarks created here belong to this user. */
  ownerId: number;
  role: Role;
  level: number;
  /** Whether the caller may drag (reorder, move) the collection. */
  draggable: boolean;
  /**
   * For the owner and collaborators: the nearest collection of the chain (this one or an ancestor)
   * that is shared with anyone, whose collaborators apply here. Null when not shared, or when the
   * caller is no collaborator.
   */
  sharedVia: number | null;
  /**
   * True when the caller is a collaborator through a share on this very collection and on none of
   * its ancestors: the caller cannot see the parent, so for them this collection is a root.
   */
  sharedRoot: boolean;
}

/** What a sharing request wants to do; each has its own rule. */
type SharingAction =
  /** POST /collection/{id}/sharing: owners and members. */
  | 'invite'
  /** GET /collection/{id}/sharing: the owner and every collaborator. */
  | 'list'
  /** Changing roles, removing others, unsharing: the owner only. */
  | 'manage'
  /** Leaving: a member or viewer. */
  | 'leave';

/** The exact text the contract gives for an invite without the right to. */
const NO_INVITE_PERMISSION = 'you dont have permissions to invite more people';

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
      return { collectionId, ownerId: userId, role: 'owner', level: LEVEL.owner, draggable: false, sharedVia: null, sharedRoot: false };
    }
    const chain = await this.access.collectionWithAncestors(collectionId);
    if (chain.length === 0) throw notFound();
    const ownerId = chain[0].user_id;
    const ids = chain.map((c) => c.id);
    let role: Role = 'none';
    let sharedRoot = false;
    if (userId !== null && ownerId === userId) role = 'owner';
    else if (userId !== null) {
      // Shares are inherited down the tree; the nearest one decides the role.
      const grants = await this.access.sharedGrants(userId, ids);
      if (grants.length) {
        role = grants[0].role;
        sharedRoot = grants.every((g) => g.collection_id === collectionId);
      }
    }
    if (role === 'none' && chain[0].public) role = 'public';
    const collaborator = role === 'owner' || role === 'member' || role === 'viewer';
    return {
      collectionId,
      ownerId,
      role,
      level: LEVEL[role],
      draggable: role === 'owner' || role === 'member',
      sharedVia: collaborator ? await this.access.nearestShared(ids) : null,
      sharedRoot,
    };
  }

  /**
   * The owner's access to each of their own collections, worked out from one read of their tree:
   * what `collection()` answers for each, without its two queries per collection.
   */
  async ownedCollections(userId: number): Promise<Map<number, CollectionAccess>> {
    const tree = await this.access.ownedTree(userId);
    const byId = new Map(tree.map((row) => [row.id, row]));
    const nearest = new Map<number, number | null>();
    const nearestShared = (id: number): number | null => {
      const known = nearest.get(id);
      if (known !== undefined) return known;
      const row = byId.get(id);
      const found = !row ? null : row.shared ? id : row.parent_id === null ? null : nearestShared(row.parent_id);
      nearest.set(id, found);
      return found;
    };
    const access = new Map<number, CollectionAccess>();
    for (const { id } of tree) {
      access.set(id, { collectionId: id, ownerId: userId, role: 'owner', level: LEVEL.owner, draggable: true, sharedVia: nearestShared(id), sharedRoot: false });
    }
    return access;
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
    // A bookmark belongs to the owner of the collection it is in, so its owner owns that collection:
    // no need to walk the collection tree (the common case, and the hot path of GET /bookmark/{id}).
    // Share details (sharedVia) are only worked out by collection()/requireCollection.
    if (loc.collection_id < 0 || (userId !== null && loc.user_id === userId)) {
      if (userId === null) throw unauthenticated();
      if (loc.user_id !== userId) throw forbidden('You do not have access to this bookmark');
      return {
        collectionId: loc.collection_id,
        ownerId: userId,
        role: 'owner',
        level: LEVEL.owner,
        draggable: true,
        sharedVia: null,
        sharedRoot: false,
      };
    }
    return this.requireCollection(userId, loc.collection_id, need);
  }

  /**
   * Of `ids` (a collection and its descendants), those the caller may read, given `access` to the
   * topmost one. Owners and collaborators read the whole branch (shares are inherited); a caller
   * who reads it only because it is public reads just the descendants that are public themselves
   * or shared with them: a private child stays private behind a public parent.
   */
  async readableBranch(userId: number | null, access: CollectionAccess, ids: number[]): Promise<number[]> {
    if (access.role === 'owner' || access.role === 'member' || access.role === 'viewer') return ids;
    const readable: number[] = [];
    for (const id of ids) {
      if (id === access.collectionId) {
        if (allows(access.role, 'read')) readable.push(id);
        continue;
      }
      if (allows((await this.collection(userId, id)).role, 'read')) readable.push(id);
    }
    return readable;
  }

  /**
   * Where a move of bookmarks owned by `sourceOwnerId` lands, once the caller may write there.
   * Trash (-99) is always the owner's Trash, as for DELETE: a member throwing away the owner's
   * bookmark must not take it into their own Trash. Unsorted (-1) and any other collection are
   * the caller's (or their owner's, for a shared one), like every move.
   */
  async requireMoveTarget(userId: number, targetId: number, sourceOwnerId: number): Promise<{ collectionId: number; ownerId: number }> {
    if (targetId === TRASH) return { collectionId: TRASH, ownerId: sourceOwnerId };
    const target = await this.requireCollection(userId, targetId, 'write');
    return { collectionId: targetId, ownerId: target.ownerId };
  }

  /** Collections of other users the caller can read through sharing (for search across "all"). */
  async sharedCollectionIds(userId: number): Promise<number[]> {
    return this.access.sharedCollectionIds(userId);
  }

  /**
   * Sharing rules (contract: Calls and permissions). Owners and members invite; the owner and every
   * collaborator see the collaborator list; only the owner changes roles, removes others and
   * unshares; members and viewers may leave. System collections cannot be shared (400); unknown
   * collections are 404; anyone else is refused with 403.
   */
  async requireSharing(userId: number | null, collectionId: number, action: SharingAction): Promise<CollectionAccess> {
    if ((SYSTEM_COLLECTION_IDS as readonly number[]).includes(collectionId)) {
      throw new ApiError(400, `Collection ${collectionId} is a system collection (0 All, -1 Unsorted, -99 Trash) and cannot be shared. Share one of your own collections.`);
    }
    const access = await this.collection(userId, collectionId);
    if (userId === null) throw unauthenticated();
    const { role } = access;
    switch (action) {
      case 'invite':
        if (role !== 'owner' && role !== 'member') throw forbidden(NO_INVITE_PERMISSION);
        break;
      case 'list':
        if (role !== 'owner' && role !== 'member' && role !== 'viewer') throw forbidden('You do not have access to this collection');
        break;
      case 'manage':
        if (role === 'member' || role === 'viewer') {
          throw forbidden('Only the owner of this collection can change roles, remove collaborators or unshare it.');
        }
        if (role !== 'owner') throw forbidden('You do not have access to this collection');
        break;
      case 'leave':
        if (role === 'owner') throw badRequest('You own this collection and cannot leave it: unshare it instead, or remove collaborators one by one.');
        if (role !== 'member' && role !== 'viewer') throw forbidden('You are not a collaborator of this collection.');
        break;
    }
    return access;
  }

  /** Collaborator emails are hidden from read-only callers (contract: Collaborator.email). */
  seesCollaboratorEmails(access: CollectionAccess): boolean {
    return access.role === 'owner' || access.role === 'member';
  }
}
