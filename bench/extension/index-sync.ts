// Saved-link index with 100k links on the real server: full sync time over HTTP, memory the index
// keeps, lookup time, and an incremental sync. Runs the extension's own SavedIndexService in Node
// (extension storage faked in memory, IndexedDB by fake-indexeddb).
import 'fake-indexeddb/auto';
import { performance } from 'node:perf_hooks';
import { fakeBrowser } from '@webext-core/fake-browser';
import { spawn } from 'node:child_process';
import path from 'node:path';

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

/** The link a seeded bookmark `i` has (see links-server.ts). */
const seeded = (i: number) => `https://site${i % 500}.example/articles/${i}/some-slug-${i % 977}?ref=feed`;

async function startLinksServer(links: number): Promise<{ origin: string; token: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'links-server.ts'), String(links)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c) => {
      buf += c;
      if (buf.includes('\n')) resolve(buf.split('\n')[0]);
    });
    child.once('exit', (code) => reject(new Error(`links server exited with ${code}`)));
  });
  const { origin, token } = JSON.parse(line) as { origin: string; token: string };
  return { origin, token, stop: () => child.stdin.end() };
}

export async function benchIndex(links = 100_000): Promise<IndexFigures> {
  (globalThis as Record<string, unknown>).chrome = fakeBrowser;
  (globalThis as Record<string, unknown>).browser = fakeBrowser;
  const { TidemarkApi } = await import('../../lib/api/client/index.js');
  const { SavedIndexService } = await import('../../lib/background/index-sync.js');
  const { normalizeUrl } = await import('../../lib/api/url.js');

  const server = await startLinksServer(links);
  try {
    let requests = 0;
    const api = new TidemarkApi({
      serverUrl: () => server.origin,
      tokens: { getAccessToken: async () => server.token, refreshAfterUnauthorized: async () => null },
      fetch: (input, init) => {
        requests++;
        return fetch(input, init);
      },
    });
    const me = await api.getUser();
    requests = 0;
    const account = { userId: me._id, name: 'bench', email: 'bench', serverUrl: server.origin, method: 'test-token' as const };

    const base = heapMb();
    let peak = base;
    const sampler = setInterval(() => {
      peak = Math.max(peak, usedMb());
    }, 2);
    const service = new SavedIndexService({ api, account: async () => account });
    const t0 = performance.now();
    await service.sync();
    const fullSyncMs = performance.now() - t0;
    const syncRequests = requests;
    clearInterval(sampler);
    // What the index keeps: its typed arrays (exact). A heap difference is not used for this:
    // collected garbage moves the heap by more than the index weighs.
    const retainedMb = service.byteSize / 1024 / 1024;

    // Lookups: half hits, half misses, spelled differently from the saved links.
    const keys: string[] = [];
    const urls: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const n = i % 2 ? i : links + i;
      const url = seeded(n).replace('https://', 'https://www.').replace('?ref=feed', '/?utm_source=x&ref=feed');
      urls.push(url);
      keys.push(normalizeUrl(url)!);
    }
    let hits = 0;
    let t = performance.now();
    for (const k of keys) if (service.lookup(k)) hits++;
    const lookupUs = ((performance.now() - t) * 1000) / keys.length;
    t = performance.now();
    for (const u of urls) if (service.lookup(normalizeUrl(u)!)) hits++;
    const normalizeAndLookupUs = ((performance.now() - t) * 1000) / urls.length;
    // The odd i below `links` are saved links, in each of the two passes.
    const expected = 2 * Math.floor(Math.min(links, 100_000) / 2);
    if (hits !== expected) throw new Error(`expected ${expected} hits over both passes, got ${hits}`);

    // 100 changes made elsewhere, then the incremental sync the alarm runs.
    for (let i = 0; i < 100; i++) await api.createBookmark({ link: `https://new.example/${i}` });
    const t1 = performance.now();
    await service.sync();
    const incrementalSyncMs = performance.now() - t1;
    if (!service.lookup('new.example/99')) throw new Error('incremental sync missed a change');

    return { links, fullSyncMs, requests: syncRequests, retainedMb, peakMb: peak - base, lookupUs, normalizeAndLookupUs, incrementalSyncMs };
  } finally {
    server.stop();
  }
}
