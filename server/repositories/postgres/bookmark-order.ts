// The manual order of bookmarks in a collection on PostgreSQL: its lock, and placing bookmarks in
// it. These run inside the callers' transactions (PgBookmarksRepository's writes).
import type pg from 'pg';
import { TRASH } from '../../../lib/api/constants.js';
import { one, run } from './query.js';

/**
 * The advisory lock of one collection's manual order (per owner: Unsorted and Trash are one id
 * for everyone). Writes that read a position and then place bookmarks relative to it hold it, so
 * two instances placing bookmarks into one collection at once never take the same position.
 */
export const orderKey = (ownerId: number, collectionId: number) => `bookmark-order:${ownerId}:${collectionId}`;

/** The smallest sort_order in a collection, or 0 when it is empty (so the first one gets -1). */
export async function firstOrder(c: pg.PoolClient, collectionId: number, ownerId: number): Promise<number> {
  const row = await one<{ v: number }>(
    c,
    'SELECT sort_order AS v FROM bookmarks WHERE collection_id = ? AND user_id = ? ORDER BY sort_order LIMIT 1',
    [collectionId, ownerId],
  );
  return row ? row.v : 0;
}

/**
 * Frees position `position` (0-based, ascending) in a collection by moving every bookmark from
 * that position on one step down, and returns the sort value to use. A position past the end
 * answers the value after the last one. `excludeId` is the bookmark being placed (0 for none).
 */
export async function makeRoomAt(c: pg.PoolClient, collectionId: number, ownerId: number, position: number, excludeId: number): Promise<number> {
  const at = await one<{ v: number }>(
    c,
    `SELECT sort_order AS v FROM bookmarks WHERE collection_id = ? AND user_id = ? AND id <> ?
      ORDER BY sort_order, id LIMIT 1 OFFSET ?`,
    [collectionId, ownerId, excludeId, position],
  );
  if (!at) {
    const last = await one<{ v: number }>(
      c,
      'SELECT sort_order AS v FROM bookmarks WHERE collection_id = ? AND user_id = ? AND id <> ? ORDER BY sort_order DESC LIMIT 1',
      [collectionId, ownerId, excludeId],
    );
    return last ? Math.floor(last.v) + 1 : 0;
  }
  await run(c, 'UPDATE bookmarks SET sort_order = sort_order + 1 WHERE collection_id = ? AND user_id = ? AND sort_order >= ? AND id <> ?', [
    collectionId,
    ownerId,
    at.v,
    excludeId,
  ]);
  return at.v;
}

/**
 * Puts bookmarks (all owned by `fromOwner`) into a collection: at `order` when given (single
 * bookmark), else first, keeping their relative order. Entering Trash sets `removed`, leaving
 * it clears it; a new owner carries over to tags and highlights. The caller holds the target's order lock.
 */
export async function placeBookmarks(
  c: pg.PoolClient,
  ids: number[],
  fromOwner: number,
  target: { collectionId: number; ownerId: number },
  now: string,
  order?: number,
): Promise<void> {
  const first =
    order !== undefined && ids.length === 1
      ? await makeRoomAt(c, target.collectionId, target.ownerId, order, ids[0])
      : (await firstOrder(c, target.collectionId, target.ownerId)) - ids.length;
  await run(
    c,
    `UPDATE bookmarks b SET collection_id = ?, user_id = ?, removed = ?, sort_order = ?::float8 + x.at - 1, last_update = ?
       FROM unnest(?::bigint[]) WITH ORDINALITY AS x(id, at) WHERE b.id = x.id`,
    [target.collectionId, target.ownerId, target.collectionId === TRASH ? 1 : 0, first, now, ids],
  );
  if (target.ownerId !== fromOwner) {
    await run(c, 'UPDATE bookmark_tags SET user_id = ? WHERE bookmark_id = ANY(?::bigint[])', [target.ownerId, ids]);
    await run(c, 'UPDATE highlights SET user_id = ? WHERE bookmark_id = ANY(?::bigint[])', [target.ownerId, ids]);
  }
}
