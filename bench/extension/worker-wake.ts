// What waking the extension's stopped service worker costs: the worker is stopped (as Chrome does
// after 30 s idle) and an extension page's typed message (`getQueue`, answered from storage, no
// request to the server) wakes it; from `runtime.sendMessage` to the answer in the page.
//
//   npx tsx bench/extension/worker-wake.ts [extension dir...] [--wakes N] [--traced N]
//   npm run bench:extension wake
//
// No directory: this tree's Chrome build. Several: each in its own browser, all open at once, woken in
// turn (A B, B A, ...), so a change in the machine's load falls on every build alike.
//
// Chromium is started here without Playwright: Playwright attaches to every service worker as it
// starts and holds it paused until its own set-up is done, which would be counted in every wake. Each
// wake also prints its parts from the clocks of the page and the worker (same system clock): message
// sent -> worker's time origin (the browser starts the worker) -> answer; and, from a trace of the
// wake (a second pass, `--traced 0` skips it), the worker's script: compile and evaluate until its
// listeners are registered. Figures only; nothing here asserts timings.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../playwright.config.js';
import { EXTENSION_ID } from '../../lib/api/extension-identity.js';
import { ensureExtensionBuilt } from '../../tests/e2e/helpers/extension-build.js';
import { RawCdp, type CdpEvent } from '../../tests/e2e/helpers/raw-cdp.js';
import { TidemarkServer } from '../../tests/e2e/helpers/tidemark-server.js';
import { scriptShare, TRACE_CATEGORIES, type ScriptShare, type TraceEvent } from './worker-wake-trace.js';

const WORKER_URL = `chrome-extension://${EXTENSION_ID}/background.js`;
const OPTIONS_URL = `chrome-extension://${EXTENSION_ID}/options.html`;

interface Wake {
  /** sendMessage -> answer in the page. */
  totalMs: number;
  /** sendMessage -> the new worker's performance.timeOrigin. */
  toWorkerStartMs: number;
  /** The same message right after, to the running worker. */
  warmMs: number;
}

/** One browser with the built extension, signed in, driven over a bare CDP connection. */
class WakeBrowser {
  private page = '';
  /** The extension worker's running status, as the ServiceWorker domain last reported it. */
  private status = '';
  /** Where the trace being recorded goes. */
  private trace: { events: TraceEvent[]; done: () => void } | null = null;
  private constructor(
    private readonly chromium: ChildProcess,
    private readonly cdp: RawCdp,
    private readonly profile: string,
  ) {}

  static async launch(extensionDir: string): Promise<WakeBrowser> {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-wake-'));
    const chromium = spawn(
      CHROMIUM_PATH,
      [
        ...CHROMIUM_ARGS,
        '--headless',
        `--user-data-dir=${profile}`,
        `--disable-extensions-except=${extensionDir}`,
        `--load-extension=${extensionDir}`,
        '--disable-features=DisableLoadExtensionCommandLineSwitch',
        '--remote-debugging-port=0',
        'about:blank',
      ],
      { stdio: 'ignore' },
    );
    const port = await devToolsPort(profile);
    const cdp = await RawCdp.open(await RawCdp.browserUrl(port));
    const b = new WakeBrowser(chromium, cdp, profile);
    await b.until(async () => (await b.workerTarget()) !== null, 'the service worker to start');
    const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: OPTIONS_URL });
    b.page = (await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true })).sessionId;
    await b.until(async () => (await b.inPage<boolean>(`location.href === '${OPTIONS_URL}' && document.readyState === 'complete' && !!globalThis.chrome?.runtime`)), 'the options page to load');
    cdp.onEvent((e: CdpEvent) => {
      if (e.method === 'ServiceWorker.workerVersionUpdated') {
        for (const v of e.params.versions as { scriptURL: string; runningStatus: string }[]) if (v.scriptURL === WORKER_URL) b.status = v.runningStatus;
      }
      if (e.method === 'Tracing.dataCollected') b.trace?.events.push(...(e.params.value as TraceEvent[]));
      if (e.method === 'Tracing.tracingComplete') b.trace?.done();
    });
    await cdp.send('ServiceWorker.enable', {}, b.page);
    return b;
  }

  /** Evaluates `expression` (awaiting a promise) in the extension page. */
  async inPage<T>(expression: string): Promise<T> {
    return evaluate<T>(this.cdp, this.page, expression);
  }

  async signIn(serverOrigin: string, token: string): Promise<void> {
    const reply = await this.inPage<{ ok: boolean; error?: { message: string } }>(
      `chrome.runtime.sendMessage({ type: 'useTestToken', data: { serverUrl: ${JSON.stringify(serverOrigin)}, token: ${JSON.stringify(token)} } })`,
    );
    if (!reply.ok) throw new Error(`Signing in failed: ${reply.error?.message}`);
  }

  async workerTarget(): Promise<string | null> {
    const { targetInfos } = await this.cdp.send<{ targetInfos: { targetId: string; type: string; url: string }[] }>('Target.getTargets');
    return targetInfos.find((t) => t.type === 'service_worker' && t.url === WORKER_URL)?.targetId ?? null;
  }

  /** Stops every service worker, as the browser does when one is idle, and waits until the extension's is gone. */
  async stopWorker(): Promise<void> {
    // ServiceWorker.* is a page-target domain: the extension page's session.
    await this.cdp.send('ServiceWorker.stopAllWorkers', {}, this.page);
    await this.until(async () => this.status === 'stopped' && (await this.workerTarget()) === null, 'the service worker to stop');
  }

  /** Wakes the stopped worker with one message from the page. */
  async wake(): Promise<Wake> {
    if (this.status !== 'stopped' || (await this.workerTarget()) !== null) throw new Error('The service worker woke before the message: not a cold wake.');
    const cold = await this.inPage<{ ms: number; sentAt: number; ok: boolean }>(SEND_GET_QUEUE);
    if (!cold.ok) throw new Error('getQueue failed.');
    const target = await this.workerTarget();
    if (!target) throw new Error('The service worker answered but is not running.');
    const { sessionId } = await this.cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: target, flatten: true });
    const origin = await evaluate<number>(this.cdp, sessionId, 'performance.timeOrigin');
    await this.cdp.send('Target.detachFromTarget', { sessionId });
    const warm = await this.inPage<{ ms: number }>(SEND_GET_QUEUE);
    return { totalMs: cold.ms, toWorkerStartMs: origin - cold.sentAt, warmMs: warm.ms };
  }

  /** One wake under a browser-wide trace: the worker thread's set-up, the script's compile and evaluation. */
  async tracedWake(): Promise<ScriptShare | null> {
    const events: TraceEvent[] = [];
    const complete = new Promise<void>((resolve) => (this.trace = { events, done: resolve }));
    await this.cdp.send('Tracing.start', { traceConfig: { includedCategories: TRACE_CATEGORIES }, transferMode: 'ReportEvents' });
    await this.inPage(SEND_GET_QUEUE);
    await this.cdp.send('Tracing.end');
    await complete;
    this.trace = null;
    return scriptShare(events, WORKER_URL);
  }

  /** Polls `check` every 20 ms for up to 15 s (the browser reports no event for each of these). */
  async until(check: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`Waited 15 s for ${what}.`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async close(): Promise<void> {
    // Teardown: the browser may already be gone.
    await this.cdp.send('Browser.close').catch(() => {});
    this.cdp.close();
    if (this.chromium.exitCode === null) await new Promise((r) => this.chromium.once('exit', r));
    fs.rmSync(this.profile, { recursive: true, force: true });
  }
}

const SEND_GET_QUEUE = `(async () => {
  const sentAt = performance.timeOrigin + performance.now();
  const t0 = performance.now();
  const reply = await chrome.runtime.sendMessage({ type: 'getQueue', data: null });
  return { ms: performance.now() - t0, sentAt, ok: !!reply && reply.ok };
})()`;

async function evaluate<T>(cdp: RawCdp, sessionId: string, expression: string): Promise<T> {
  const r = await cdp.send<{ result: { value: T }; exceptionDetails?: { exception?: { description?: string }; text: string } }>(
    'Runtime.evaluate',
    { expression, awaitPromise: true, returnByValue: true },
    sessionId,
  );
  if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
  return r.result.value;
}

/** The DevTools port Chromium listens on (port 0: it picks one and writes it to DevToolsActivePort). */
async function devToolsPort(profile: string): Promise<number> {
  const file = path.join(profile, 'DevToolsActivePort');
  const deadline = Date.now() + 15_000;
  for (;;) {
    const port = fs.existsSync(file) ? Number.parseInt(fs.readFileSync(file, 'utf8').split('\n')[0], 10) : NaN;
    if (port > 0) return port;
    if (Date.now() > deadline) throw new Error(`Chromium wrote no DevTools port to ${file} within 15 s.`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the server has had no request for 1 s (the worker's sign-in syncs), at most 30 s. */
async function quiet(server: TidemarkServer): Promise<void> {
  const deadline = Date.now() + 30_000;
  let seen = -1;
  while (seen !== server.requests.length && Date.now() < deadline) {
    seen = server.requests.length;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((s.length * p) / 100) - 1)];
};
const fmt = (xs: number[]) => (xs.length ? `p50 ${pct(xs, 50).toFixed(1)}, p90 ${pct(xs, 90).toFixed(1)}, max ${Math.max(...xs).toFixed(1)} ms` : 'n/a');
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

export interface WakeFigures {
  builds: { name: string; dir: string; backgroundGzip: number; wakes: Wake[]; traced: ScriptShare[] }[];
  loadStart: string;
  loadEnd: string;
  /** API requests the server received during the (untraced) wakes. */
  requests: string[];
}

/** Wakes each build's stopped worker `wakes` times (interleaved), then `traced` more times under a trace. */
export async function benchWorkerWake(dirs: string[], opts: { wakes?: number; traced?: number } = {}): Promise<WakeFigures> {
  const server = await TidemarkServer.start();
  const browsers: WakeBrowser[] = [];
  try {
    const builds: WakeFigures['builds'] = [];
    for (const [i, dir] of dirs.entries()) {
      const name = String.fromCharCode(65 + i);
      const backgroundGzip = zlib.gzipSync(fs.readFileSync(path.join(dir, 'background.js')), { level: 9 }).length;
      builds.push({ name, dir, backgroundGzip, wakes: [], traced: [] });
      const b = await WakeBrowser.launch(dir);
      browsers.push(b);
      const { token } = await server.createUser(`wake-${i}@example.test`, 'correct horse battery', 'Bench');
      await b.signIn(server.origin, token);
    }
    await quiet(server);
    const loadStart = load();
    const requestsBefore = server.requests.length;
    const order = (n: number) => (n % 2 ? [...browsers.keys()].reverse() : [...browsers.keys()]);
    for (let n = 0; n < (opts.wakes ?? 30); n++) {
      for (const i of order(n)) {
        await browsers[i].stopWorker();
        builds[i].wakes.push(await browsers[i].wake());
      }
    }
    const requests = server.requests.slice(requestsBefore);
    for (let n = 0; n < (opts.traced ?? 10); n++) {
      for (const i of order(n)) {
        await browsers[i].stopWorker();
        const share = await browsers[i].tracedWake();
        if (share) builds[i].traced.push(share);
      }
    }
    return { builds, loadStart, loadEnd: load(), requests };
  } finally {
    for (const b of browsers) await b.close();
    await server.close();
  }
}

export function printWorkerWake(f: WakeFigures): void {
  console.log(`  load average at the start: ${f.loadStart}, at the end: ${f.loadEnd} (${os.cpus().length} cores)`);
  console.log(`  requests to the server during the wakes: ${f.requests.length ? [...new Set(f.requests)].join(', ') : 'none'}`);
  for (const b of f.builds) {
    console.log(`  ${b.name}: ${b.dir} (background.js ${b.backgroundGzip} bytes gzipped), ${b.wakes.length} wakes`);
    const w = b.wakes;
    if (w.length) {
      console.log(`    sendMessage -> answer (wake)          ${fmt(w.map((x) => x.totalMs))}`);
      console.log(`      -> worker's time origin             ${fmt(w.map((x) => x.toWorkerStartMs))}`);
      console.log(`      worker's time origin -> answer      ${fmt(w.map((x) => x.totalMs - x.toWorkerStartMs))}`);
      console.log(`    the same message, worker running      ${fmt(w.map((x) => x.warmMs))}`);
    }
    const s = b.traced;
    if (!s.length) continue;
    console.log(`    traced wakes (${s.length}, ${s.filter((x) => x.fromCache).length} compiled from V8's code cache; tracing slows them):`);
    console.log(`      worker thread set-up                ${fmt(s.map((x) => x.threadSetupMs))}`);
    console.log(`      script compile                      ${fmt(s.map((x) => x.compileMs))}`);
    console.log(`      script evaluation (listeners added) ${fmt(s.map((x) => x.evaluateMs))}`);
    console.log(`      thread start -> listeners added     ${fmt(s.map((x) => x.startToListenersMs))}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: number) => {
    const i = args.indexOf(name);
    if (i < 0) return fallback;
    const value = Number(args.splice(i, 2)[1]);
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} takes a whole number.`);
    return value;
  };
  const wakes = option('--wakes', 30);
  const traced = option('--traced', 10);
  (args.length ? Promise.resolve(args.map((d) => path.resolve(d))) : ensureExtensionBuilt().then((d) => [d]))
    .then((dirs) => benchWorkerWake(dirs, { wakes, traced }))
    .then((f) => {
      console.log("Service worker wake-up: the stopped worker woken by an extension page's getQueue, headless Chromium, real server on loopback:");
      printWorkerWake(f);
      process.exit(0);
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
