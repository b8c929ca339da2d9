// Saved-link index with 100k links on the real server: full sync time over HTTP, memory the index
// keeps, lookup time, and an incremental sync. Runs the extension's own SavedIndexService in Node
// (extension storage faked in memory, IndexedDB by fake-indexeddb).
import 'fake-indexeddb/auto';
import { performance } from 'node:perf_hooks';
import { fakeBrowser } from '@webext-core/fake-browser';
import type { TestServer } from '../../tests/helpers/server.js';

/** JS heap plus ArrayBuffer memory (the index's typed arrays live outside the JS heap). */
function usedMb(): number {
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 1024 / 1024;
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  return usedMb();
}

export interface IndexFigures {
  links: number;
  fullSyncMs: number;
  requests: number;
  retainedMb: number;
  peakMb: number;
  lookupUs: number;
  normalizeAndLookupUs: number;
  incrementalSyncMs: number;
}

export async function benchIndex(s: TestServer, links = 100_000): Promise<IndexFigures> {
  (globalThis as Record<string, unknown>).chrome = fakeBrowser;
  (globalThis as Record<string, unknown>).browser = fakeBrowser;
  const { TidemarkApi } = await import('../../lib/api/client/index.js');
  const { SavedIndexService } = await import('../../lib/background/index-sync.js');
  const { normalizeUrl } = await import('../../lib/api/url.js');

  const user = await s.createUser();
  // Setup through the repository (one transaction per 5000 rows): the HTTP API would take minutes.
  const domains = Array.from({ length: 500 }, (_, i) => `site${i}.example`);
  for (let start = 0; start < links; start += 5000) {
    const batch = [];
    for (let i = start; i < Math.min(links, start + 5000); i++) {
      const link = `https://${domains[i % domains.length]}/articles/${i}/some-slug-${i % 977}?ref=feed`;
      batch.push({
        ownerId: user.id, creatorId: user.id, collectionId: -1, link, linkKey: normalizeUrl(link)!, domain: domains[i % domains.length],
        title: `Article ${i}`, excerpt: '', note: '', type: 'link' as const, cover: '', media: [], tags: [], important: false, highlights: [],
      });
    }
    await s.app.repos.bookmarks.create(batch);
  }

  let requests = 0;
  const api = new TidemarkApi({
    serverUrl: () => s.origin,
    tokens: { getAccessToken: async () => user.token, refreshAfterUnauthorized: async () => null },
    fetch: (input, init) => {
      requests++;
      return fetch(input, init);
    },
  });
  const account = { userId: user.id, name: 'bench', email: 'bench', serverUrl: s.origin, method: 'test-token' as const };

  const base = heapMb();
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, usedMb());
  }, 2);
  let service: InstanceType<typeof SavedIndexService> | null = new SavedIndexService({ api, account: async () => account });
  const t0 = performance.now();
  await service.sync();
  const fullSyncMs = performance.now() - t0;
  clearInterval(sampler);

  // Lookups: half hits, half misses, keys prepared beforehand.
  const keys: string[] = [];
  const urls: string[] = [];
  for (let i = 0; i < 100_000; i++) {
    const n = i % 2 ? i : links + i;
    const url = `https://www.${domains[n % domains.length]}/articles/${n}/some-slug-${n % 977}/?utm_source=x&ref=feed`;
    urls.push(url);
    keys.push(normalizeUrl(url)!);
  }
  let hits = 0;
  let t = performance.now();
  for (const k of keys) if (service!.lookup(k)) hits++;
  const lookupUs = ((performance.now() - t) * 1000) / keys.length;
  t = performance.now();
  for (const u of urls) if (service!.lookup(normalizeUrl(u)!)) hits++;
  const normalizeAndLookupUs = ((performance.now() - t) * 1000) / urls.length;
  if (hits !== 100_000) throw new Error(`expected 100000 hits over both passes, got ${hits}`);

  // 100 changes made elsewhere, then the incremental sync the badge alarm runs.
  for (let i = 0; i < 100; i++) await s.api('POST', '/bookmark', { token: user.token, body: { link: `https://new.example/${i}` } });
  const t1 = performance.now();
  await service!.sync();
  const incrementalSyncMs = performance.now() - t1;
  if (!service!.lookup('new.example/99')) throw new Error('incremental sync missed a change');

  // What the index keeps: its typed arrays (exact). A heap difference is not used: garbage from the
  // setup and string flattening move the heap by more than the index weighs.
  const retainedMb = service!.byteSize / 1024 / 1024;
  service = null;

  return { links, fullSyncMs, requests, retainedMb, peakMb: peak - base, lookupUs, normalizeAndLookupUs, incrementalSyncMs };
}
