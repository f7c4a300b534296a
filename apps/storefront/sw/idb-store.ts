/**
 * The offline taps kept in IndexedDB, readable by the page (which queues a tap made while the phone
 * knows it is offline) and by the service worker (which queues a tap whose post failed, and sends them).
 */
import type { QueuedTap, TapStore } from './queue';

const DB = 'shop-offline';
const STORE = 'taps';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return open().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const tx = db.transaction(STORE, mode);
        const request = work(tx.objectStore(STORE));
        tx.oncomplete = () => {
          db.close();
          resolve(request.result);
        };
        tx.onerror = () => {
          db.close();
          reject(tx.error);
        };
      }),
  );
}

export const idbStore: TapStore = {
  all: () => run('readonly', (store) => store.getAll() as IDBRequest<QueuedTap[]>),
  put: (tap) => run('readwrite', (store) => store.put(tap)).then(() => undefined),
  delete: (key) => run('readwrite', (store) => store.delete(key)).then(() => undefined),
};
