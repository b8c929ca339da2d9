// A fresh extension for each test: empty fake browser (storage, listeners) and no values cached in
// memory (as after the service worker restarts).
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { resetStorageMemo } from '../../../lib/storage/memo.js';

export function resetExtension(): void {
  fakeBrowser.reset();
  resetStorageMemo();
}
