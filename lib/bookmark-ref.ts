// How the extension names a bookmark in messages, the offline queue and the caches. Its own module:
// the message schemas (lib/messaging/schemas.ts) and the stored shapes (lib/model.ts) both need it.

/**
 * Names a bookmark for a write: `b:<id>` once the server has it, `l:<local id>` while its create
 * is still in the offline queue.
 */
export type BookmarkRef = `b:${number}` | `l:${string}`;

export const refOf = (id: number): BookmarkRef => `b:${id}`;
export const isLocalRef = (ref: BookmarkRef): ref is `l:${string}` => ref.startsWith('l:');
export function serverIdOf(ref: BookmarkRef): number | null {
  return ref.startsWith('b:') ? Number(ref.slice(2)) : null;
}
