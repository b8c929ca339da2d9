import type { BookmarkCreate } from '../../../lib/api/types.js';
import type { NewBookmark } from '../../repositories/index.js';
import type { Repositories } from '../../repositories/index.js';
import type { CollectionAccess, Permissions } from '../permissions.js';
import { readCreate } from './input.js';

/** A create body checked and placed: what to insert, and whether the page should be parsed afterwards. */
export interface PreparedBookmark {
  item: NewBookmark;
  pleaseParse: boolean;
}

/**
 * The one way bookmarks are created: `POST /bookmark`, `POST /bookmarks` and the `import` command
 * all go through here, so checks (links, dates, tags, system collections, write access to the
 * target collection), ordering, the owner's change date and page-parse jobs are the same for each.
 */
export class BookmarkCreation {
  constructor(
    private readonly repos: Pick<Repositories, 'bookmarks' | 'users'>,
    private readonly permissions: Permissions,
  ) {}

  /**
   * Checks one schema-valid body and resolves its collection's owner (`userId` needs write access).
   * Throws the ApiError a route would answer (field names prefixed with `prefix`, e.g. `items.3.`).
   * `access` caches collection lookups across the bodies of one request or batch.
   */
  async prepare(userId: number, body: BookmarkCreate, prefix = '', access = new Map<number, CollectionAccess>()): Promise<PreparedBookmark> {
    return this.place(userId, body, readCreate(body, prefix), access);
  }

  private async place(
    userId: number,
    body: BookmarkCreate,
    input: ReturnType<typeof readCreate>,
    access: Map<number, CollectionAccess>,
  ): Promise<PreparedBookmark> {
    let target = access.get(input.collectionId);
    if (!target) {
      target = await this.permissions.requireCollection(userId, input.collectionId, 'write');
      access.set(input.collectionId, target);
    }
    return { item: { ...input, ownerId: target.ownerId, creatorId: userId }, pleaseParse: !!body.pleaseParse };
  }

  /**
   * Inserts prepared bookmarks in one transaction (in the order given), their page parses (pleaseParse)
   * queued in it too; answers their ids.
   */
  async save(prepared: PreparedBookmark[]): Promise<number[]> {
    if (prepared.length === 0) return [];
    const ids = await this.repos.bookmarks.create(prepared.map((p) => ({ ...p.item, pleaseParse: p.pleaseParse })));
    for (const owner of new Set(prepared.map((p) => p.item.ownerId))) await this.repos.users.touchBookmarks(owner);
    return ids;
  }

  /**
   * Checks every body, then write access to every target collection (the first problem refuses
   * all of them), then saves them together.
   */
  async create(userId: number, bodies: BookmarkCreate[], prefix: (index: number) => string = () => ''): Promise<number[]> {
    const inputs = bodies.map((body, i) => readCreate(body, prefix(i)));
    const access = new Map<number, CollectionAccess>();
    const prepared: PreparedBookmark[] = [];
    for (const [i, body] of bodies.entries()) prepared.push(await this.place(userId, body, inputs[i], access));
    return this.save(prepared);
  }
}
