// Local keys of highlights made offline. A highlight made offline gets a local key (`l:<uuid>`) and
// keeps it on this device; once delivered, its server id is looked up from the key (the queue records
// it, lib/background/queue.ts), so pages painted with the local key keep working, also after the
// service worker restarts.
import type { Bookmark } from '../api/types.js';
import type { StoredHighlight } from '../model.js';
import { isLocalKey, type WriteQueue } from './queue.js';
import { storedOf } from './stored-highlights.js';

interface KeyMap {
  /** The server id of a delivered local key; any other key as it is. */
  toServer: (key: string) => string;
  /** The local key a server id was delivered from; any other id as it is. */
  alias: (id: string) => string;
}

/** Local key <-> server id for highlights made offline and delivered since. */
export async function keyMap(queue: WriteQueue): Promise<KeyMap> {
  const ids = await queue.highlightIds();
  const reverse = new Map(Object.entries(ids).map(([local, e]) => [e.id, local]));
  return {
    toServer: (key) => (isLocalKey(key) ? (ids[key]?.id ?? key) : key),
    alias: (id) => reverse.get(id) ?? id,
  };
}

/** The server's highlights as kept here: one made offline on this device keeps its local key. */
export async function fromServer(queue: WriteQueue, list: Bookmark['highlights']): Promise<StoredHighlight[]> {
  const { alias } = await keyMap(queue);
  return list.map((h) => ({ ...storedOf(h), key: alias(h._id) }));
}
