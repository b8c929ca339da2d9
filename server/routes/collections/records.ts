import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Collection } from '../../../lib/api/types.js';
import { SYSTEM_COLLECTION_IDS } from '../../../lib/api/constants.js';
import { badRequest } from '../../errors.js';
import { toCollection, type CollectionRow } from '../../repositories/index.js';
import { ownOrigin } from '../../web/origin.js';
import { publicUrlOf } from '../../web/public/address.js';

/**
 * The collection records for rows, each with the caller's access as the permission module sees it.
 * While a collection (or one above it) is shared, its owner and collaborators see
 * `collaborators: {$id}`, where `$id` is the id (as text) of the shared collection whose
 * collaborators apply. A collaborator who cannot see a collection's parent gets it without
 * `parent`: for them it is a root. A public collection carries `publicUrl`, the address of its
 * read-only web page (web/public/).
 */
export async function collectionRecords(app: FastifyInstance, request: FastifyRequest, rows: CollectionRow[]): Promise<Collection[]> {
  const { userId } = request;
  const origin = ownOrigin(app, request);
  const items: Collection[] = [];
  // The caller's own collections come from one read of their tree; others' (shared with them) one by one.
  const owned = userId !== null && rows.some((row) => row.user_id === userId) ? await app.permissions.ownedCollections(userId) : new Map();
  for (const row of rows) {
    const access = owned.get(row.id) ?? (await app.permissions.collection(userId, row.id));
    const item = toCollection(row, access);
    if (access.sharedVia !== null) item.collaborators = { $id: String(access.sharedVia) };
    if (access.sharedRoot) delete item.parent;
    const publicUrl = publicUrlOf(origin, row);
    if (publicUrl) item.publicUrl = publicUrl;
    items.push(item);
  }
  return items;
}

export function isSystemCollection(id: number): boolean {
  return (SYSTEM_COLLECTION_IDS as readonly number[]).includes(id);
}

/** System collections (0 All, -1 Unsorted, -99 Trash) are not stored records and cannot be edited. */
export const systemCollection = (id: number, what: string) =>
  badRequest(
    `Collection ${id} is a system collection (0 All, -1 Unsorted, -99 Trash) and cannot be ${what}. ` +
      'Use the id of one of your own collections.',
  );

/** A title of only spaces is as good as none. */
export function cleanTitle(title: string): string {
  const t = title.trim();
  if (!t) throw badRequest('body.title must not be empty: give the collection a name.');
  return t;
}
