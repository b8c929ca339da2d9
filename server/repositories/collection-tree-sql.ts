// The collection tree walk shared by the repositories that read "a collection and everything below it",
// plain recursive SQL that SQLite and PostgreSQL read alike (`?` placeholders; PostgreSQL numbers them).

/** Deepest nesting followed; a guard against a parent cycle, far beyond any real tree. */
const MAX_DEPTH = 64;

/**
 * `WITH RECURSIVE tree(id, depth) AS (...)`: the collections `seed` selects (as `id, 0` rows) and
 * all collections below them. Follow with a query that reads `tree`.
 */
export const collectionTree = (seed: string): string => `
  WITH RECURSIVE tree(id, depth) AS (
    ${seed}
    UNION
    SELECT c.id, tree.depth + 1 FROM collections c JOIN tree ON c.parent_id = tree.id WHERE tree.depth < ${MAX_DEPTH})`;

/** `collectionTree` seeded with one collection id (the `?`). */
export const COLLECTION_AND_DESCENDANTS = `${collectionTree('SELECT id, 0 FROM collections WHERE id = ?')} SELECT id FROM tree`;

/** `collectionTree` seeded with other users' collections shared with a user (`?` user id, twice). */
export const SHARED_WITH_USER_TREE = collectionTree(
  `SELECT s.collection_id, 0 FROM collaborators s JOIN collections o ON o.id = s.collection_id
    WHERE s.user_id = ? AND o.user_id <> ?`,
);
