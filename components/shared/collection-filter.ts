// Ordering and filtering of the collection picker: recently used first, then everything by path;
// typing filters on the full path ("work read" finds "Work / Reading").
import type { CollectionOption } from '../../lib/model.js';

export const pathText = (c: CollectionOption) => c.path.join(' / ');

interface PickerList {
  recent: CollectionOption[];
  all: CollectionOption[];
  /** Title to offer "Create …" for, when the query names no existing collection. */
  create: { title: string; parentId: number | null; parentPath: string | null } | null;
}

export function filterCollections(items: CollectionOption[], recentIds: number[], query: string): PickerList {
  const q = query.trim().toLowerCase();
  const words = q.split(/[\s/]+/).filter(Boolean);
  const matches = (c: CollectionOption) => {
    const text = pathText(c).toLowerCase();
    return words.every((w) => text.includes(w));
  };
  const byId = new Map(items.map((c) => [c.id, c]));
  const recent = q ? [] : recentIds.map((id) => byId.get(id)).filter((c): c is CollectionOption => !!c).slice(0, 5);
  const all = items.filter((c) => !q || matches(c));
  let create: PickerList['create'] = null;
  if (q) {
    // "Parent / New child" creates inside an existing collection.
    const parts = query.split('/').map((p) => p.trim()).filter(Boolean);
    const title = parts[parts.length - 1] ?? '';
    const parentPath = parts.slice(0, -1).join(' / ');
    const parent = parentPath ? items.find((c) => c.id > 0 && pathText(c).toLowerCase() === parentPath.toLowerCase()) : undefined;
    const exists = items.some((c) => pathText(c).toLowerCase() === parts.join(' / ').toLowerCase());
    if (title && !exists && (!parentPath || parent)) {
      create = { title, parentId: parent?.id ?? null, parentPath: parent ? pathText(parent) : null };
    }
  }
  return { recent, all, create };
}
