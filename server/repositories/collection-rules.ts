// The rules of collections that do not depend on the database: the stored values of a new or
// changed collection, the order a reorder writes, and which collections a clean-up removes.
import type { CollectionSort } from '../../lib/api/constants.js';
import type { CollectionFields } from './types/index.js';

/** A collection as reorderAll weighs it. */
export interface ReorderRow {
  id: number;
  parent_id: number | null;
  title: string;
  count: number;
}

/**
 * The `sort` each collection gets so that, within each parent, they list in the asked order:
 * `title` A to Z, `-title` Z to A, `-count` most bookmarks first (then by title). Each sibling
 * group is numbered n-1 ... 0 (listing is by sort descending).
 */
export function siblingSorts(rows: ReorderRow[], order: CollectionSort): [id: number, sort: number][] {
  const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
  const groups = new Map<number | null, ReorderRow[]>();
  for (const row of rows) {
    const g = groups.get(row.parent_id) ?? [];
    g.push(row);
    groups.set(row.parent_id, g);
  }
  const byTitle = (a: ReorderRow, b: ReorderRow) => collator.compare(a.title, b.title) || a.id - b.id;
  const compare: Record<CollectionSort, (a: ReorderRow, b: ReorderRow) => number> = {
    title: byTitle,
    '-title': (a, b) => -byTitle(a, b),
    '-count': (a, b) => b.count - a.count || byTitle(a, b),
  };
  const out: [number, number][] = [];
  for (const group of groups.values()) {
    group.sort(compare[order]);
    group.forEach((row, i) => out.push([row.id, group.length - 1 - i]));
  }
  return out;
}

/**
 * The collections a clean-up removes: those that hold no bookmark (`has` false) and have no
 * descendant that holds any. Everything below an empty collection is empty too, so removing a
 * parent (its children cascade) never takes a kept collection with it.
 */
export function collectionsToClean(rows: { id: number; parent_id: number | null; has: boolean | number }[]): number[] {
  const parent = new Map(rows.map((r) => [r.id, r.parent_id]));
  // A collection is kept when it, or anything below it, holds a bookmark: mark every such
  // collection and its ancestors.
  const keep = new Set<number>();
  for (const row of rows) {
    if (!row.has) continue;
    let id: number | null = row.id;
    let guard = 0;
    while (id !== null && !keep.has(id) && guard++ < 1000) {
      keep.add(id);
      id = parent.get(id) ?? null;
    }
  }
  return rows.filter((r) => !keep.has(r.id)).map((r) => r.id);
}

/** Inserts a collection: the values come from `newCollectionValues`. */
export const INSERT_COLLECTION = `INSERT INTO collections (user_id, parent_id, title, view, sort, public, expanded, color, cover, created, last_update)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

export function newCollectionValues(userId: number, input: CollectionFields & { title: string; parentId: number | null }, sort: number, now: string): unknown[] {
  return [
    userId,
    input.parentId,
    input.title,
    input.view ?? 'list',
    sort,
    input.public ? 1 : 0,
    input.expanded === false ? 0 : 1,
    input.color ?? null,
    JSON.stringify(input.cover ?? []),
    now,
    now,
  ];
}

/** The columns a change of a collection's settings sets, with the values to store. */
export function collectionColumns(fields: CollectionFields): [column: string, value: unknown][] {
  const out: [string, unknown][] = [];
  if (fields.title !== undefined) out.push(['title', fields.title]);
  if (fields.view !== undefined) out.push(['view', fields.view]);
  if (fields.public !== undefined) out.push(['public', fields.public ? 1 : 0]);
  if (fields.expanded !== undefined) out.push(['expanded', fields.expanded ? 1 : 0]);
  if (fields.color !== undefined) out.push(['color', fields.color]);
  if (fields.cover !== undefined) out.push(['cover', JSON.stringify(fields.cover)]);
  return out;
}
