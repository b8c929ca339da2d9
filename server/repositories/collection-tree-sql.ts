// Collection SQL both backends run as written (`?` placeholders; PostgreSQL numbers them): the tree
// walk of the repositories that read "a collection and everything below it", and the listing.

/** Deepest nesting followed; a guard against a parent cycle, far beyond any real tree. */
const MAX_DEPTH = 64;

/**
 * `WITH RECURSIVE tree(id, depth) AS (...)`: the collections `seed` selects (as `id, 0` rows) and
 * all collections below them. Follow with a query that reads `tree`.
 */
const collectionTree = (seed: string): string => `
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

// `count` is computed from the bookmarks table on every read (bookmarks_collection_order index),
// so it can never drift from the truth. Bookmarks in Trash carry collection_id -99, so only
// `removed = 0` rows are counted.
export const COLLECTION_WITH_COUNT = `
  SELECT c.id, c.user_id, c.parent_id, c.title, c.view, c.sort, c.public, c.expanded, c.color, c.cover,
         c.created, c.last_update,
         (SELECT count(*) FROM bookmarks b WHERE b.collection_id = c.id AND b.removed = 0) AS count
    FROM collections c`;

// Listing order: `sort` descending (the spec: "descending order; position among collections with
// the same parent"), then id ascending so ties are stable.
export const COLLECTION_ORDER = 'ORDER BY c.sort DESC, c.id ASC';

/** What reorderAll weighs: each of a user's collections (`?`) with its parent, title and bookmark count. */
export const REORDER_ROWS = `SELECT c.id, c.parent_id, c.title,
       (SELECT count(*) FROM bookmarks b WHERE b.collection_id = c.id AND b.removed = 0) AS count
  FROM collections c WHERE c.user_id = ?`;

/** A collection (`?`) and its ancestors, nearest first, as owner rows. */
export const COLLECTION_WITH_ANCESTORS = `
  WITH RECURSIVE chain(id, user_id, parent_id, public, depth) AS (
    SELECT id, user_id, parent_id, public, 0 FROM collections WHERE id = ?
    UNION ALL
    SELECT c.id, c.user_id, c.parent_id, c.public, chain.depth + 1
      FROM collections c JOIN chain ON c.id = chain.parent_id
     WHERE chain.depth < ${MAX_DEPTH})
  SELECT id, user_id, parent_id, public FROM chain ORDER BY depth`;
