// A tiny key-value store in the extension's own IndexedDB. Only trusted extension contexts (the
// background, the extension's pages) can open it: content scripts run in the page's origin and see
// the page's IndexedDB, never this one. Used for the long-lived credential and the saved-link index
// (typed arrays, which extension storage cannot hold).

const DB_NAME = 'tidemark';
const STORE = 'kv';

let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => {
      const db = req.result;
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      resolve(db);
    };
    req.onerror = () => {
      opening = null;
      reject(req.error ?? new Error('IndexedDB could not be opened'));
    };
  });
  return opening;
}

function run<T>(mode: IDBTransactionMode, fn: (store: IDBObjectStore) => IDBRequest | void): Promise<T> {
  return open().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const tx = db.transaction(STORE, mode);
        const req = fn(tx.objectStore(STORE));
        tx.oncomplete = () => resolve((req ? req.result : undefined) as T);
        tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
        tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
      }),
  );
}

/** One typed record in the store. Declared in lib/storage/items.ts with the other storage. */
export interface IdbRecord<T> {
  get(): Promise<T | undefined>;
  set(value: T): Promise<void>;
  remove(): Promise<void>;
}

export function idbRecord<T>(key: string): IdbRecord<T> {
  return {
    get: () => run<T | undefined>('readonly', (s) => s.get(key)),
    set: (value) => run<void>('readwrite', (s) => s.put(value, key)),
    remove: () => run<void>('readwrite', (s) => s.delete(key)),
  };
}
