// The web app's service worker (built to /sw.js by vite.web.config.ts, which writes the list of the
// build's files in place of PRECACHE below). It keeps the app shell (index.html and the hashed
// files), so the installed app opens without a network, and the last API answers the app read, so
// it shows what it last loaded: network first, this copy only when the network fails, marked with
// a header the app reads (lib/library/web-host.ts, OFFLINE_COPY_HEADER) to say it is offline.
// Changes (anything but GET) are never answered from here: offline they fail, and the app says so.
/// <reference lib="webworker" />
export {};
declare const self: ServiceWorkerGlobalScope;

/** The build's files (`/assets/…`), written in by the build. */
const PRECACHE: string[] = JSON.parse('__TIDEMARK_PRECACHE__') as string[];
/** One shell cache per build: a new build installs beside the old and replaces it when it activates. */
const SHELL = `tidemark-shell-${PRECACHE.join('|').length.toString(36)}-${hash(PRECACHE.join('|'))}`;
/** The API answers kept. The same name is cleared on sign-out by the page (web/sign-out.ts). */
const API = 'tidemark-api';
const API_MAX_ENTRIES = 60;
const CACHED_AT = 'x-tidemark-cached-at';
const OFFLINE_COPY = 'x-tidemark-offline-copy';

function hash(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const shell = await caches.open(SHELL);
      await shell.addAll(PRECACHE);
      // The page itself needs the session; kept only when it is the app (not the sign-in page it redirects to).
      const index = await fetch('/', { credentials: 'same-origin', redirect: 'manual' }).catch(() => null);
      if (index?.ok && index.type === 'basic') await shell.put('/', index);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('tidemark-shell-') && name !== SHELL) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    if (url.pathname === '/') event.respondWith(appPage(request));
    // Signing in or out: whoever comes next must not see this account's copy.
    else if (url.pathname === '/signin' || url.pathname === '/signout') event.waitUntil(caches.delete(API));
    return;
  }
  if (url.pathname.startsWith('/assets/')) event.respondWith(fromShellFirst(request));
  else if (url.pathname.startsWith('/rest/v1/') && !/\/export\.\w+$/.test(url.pathname)) event.respondWith(apiAnswer(request));
});

/** The app's page: the server's (the session may have ended: its redirect to sign-in goes through), the kept one offline. */
async function appPage(request: Request): Promise<Response> {
  try {
    const res = await fetch(request);
    if (res.ok && res.type === 'basic') {
      const copy = res.clone();
      void caches.open(SHELL).then((c) => c.put('/', copy));
    } else if (res.type === 'opaqueredirect') {
      await caches.delete(API);
    }
    return res;
  } catch (err) {
    const kept = await caches.match('/', { cacheName: SHELL });
    if (kept) return kept;
    throw err;
  }
}

/**
 * Hashed files never change: the kept copy, else the network (and kept from then on). Whatever the
 * request's headers: the server's answers say `Vary: Origin`, and a file loaded by import() carries
 * an Origin that the precache's requests did not, though the file is the same.
 */
async function fromShellFirst(request: Request): Promise<Response> {
  const kept = await caches.match(request, { cacheName: SHELL, ignoreVary: true });
  if (kept) return kept;
  const res = await fetch(request);
  if (res.ok) {
    const copy = res.clone();
    void caches.open(SHELL).then((c) => c.put(request, copy));
  }
  return res;
}

/** An API read: the server's answer (kept when it is a JSON success), this device's last copy when the network fails. */
async function apiAnswer(request: Request): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(request);
  } catch (err) {
    const kept = await caches.match(request, { cacheName: API });
    if (!kept) throw err;
    const headers = new Headers(kept.headers);
    headers.set(OFFLINE_COPY, headers.get(CACHED_AT) ?? String(Date.now()));
    return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers });
  }
  if (res.status === 401) {
    await caches.delete(API);
  } else if (res.ok && (res.headers.get('content-type') ?? '').includes('application/json')) {
    const copy = res.clone();
    void keep(request, copy);
  }
  return res;
}

async function keep(request: Request, res: Response): Promise<void> {
  const headers = new Headers(res.headers);
  headers.set(CACHED_AT, String(Date.now()));
  const cache = await caches.open(API);
  await cache.put(request, new Response(await res.blob(), { status: res.status, statusText: res.statusText, headers }));
  // Oldest first (the order they were put in): the few dozen last answers are enough to open with.
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - API_MAX_ENTRIES))) await cache.delete(old);
}
