// Sharing rules both backends apply to the rows they read: which grant of a user counts when a
// collection and several of its ancestors are shared with them.
import type { CollaboratorRow } from './types/index.js';

/**
 * One row per user: the grant on the collection nearest to the shared one (`chain` lists it first,
 * then its ancestors), ordered by when they joined, then by user id.
 */
export function nearestCollaborators(rows: CollaboratorRow[], chain: number[]): CollaboratorRow[] {
  const depth = new Map(chain.map((id, i) => [id, i]));
  const nearest = new Map<number, CollaboratorRow>();
  for (const row of rows) {
    const have = nearest.get(row.user_id);
    if (!have || depth.get(row.collection_id)! < depth.get(have.collection_id)!) nearest.set(row.user_id, row);
  }
  return [...nearest.values()].sort((a, b) => a.joined_at - b.joined_at || a.user_id - b.user_id);
}
