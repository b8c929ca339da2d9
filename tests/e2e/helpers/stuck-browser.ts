// What a Chromium that stopped answering was doing, found without Playwright (whose own connection
// may be what waits): the DevTools HTTP endpoint, a raw CDP connection of its own (the browser's
// target list; each target asked a Runtime.evaluate), and the Chromium processes of that profile
// (state, CPU time, kernel wait channel). With TIDEMARK_E2E_GDB=1 it also writes every thread's stack
// of those processes (gdb) to a file. Every step has its own time limit: a diagnosis must not hang
// on what it diagnoses.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RawCdp } from './raw-cdp.js';

const STEP_MS = 4000;

/** `step`'s value, or null when it gives none within `ms`. */
export function within<T>(step: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return Promise.race([step, late]).finally(() => clearTimeout(timer));
}

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  attached: boolean;
}

/** The browser's answers over DevTools, one fact per step. */
async function devToolsFacts(debugPort: number, note: (fact: string) => void): Promise<void> {
  const version = await within(
    fetch(`http://127.0.0.1:${debugPort}/json/version`).then((r) => r.json() as Promise<{ webSocketDebuggerUrl: string }>),
    STEP_MS,
  ).catch((err: Error) => err);
  if (!version) return note(`the DevTools HTTP endpoint gave no answer in ${STEP_MS / 1000} s (the browser's UI thread stuck?)`);
  if (version instanceof Error) return note(`the DevTools HTTP endpoint failed: ${version.message}`);
  note('the DevTools HTTP endpoint answers');
  const cdp = await within(RawCdp.open(version.webSocketDebuggerUrl), STEP_MS).catch((err: Error) => err);
  if (!cdp || cdp instanceof Error) return note(`no raw CDP connection: ${cdp ? cdp.message : 'no answer'}`);
  try {
    const list = await within(cdp.send<{ targetInfos: TargetInfo[] }>('Target.getTargets'), STEP_MS);
    if (!list) return note(`Target.getTargets gave no answer in ${STEP_MS / 1000} s`);
    // All at once: a target that does not answer costs its time limit, and the test's time is short.
    await Promise.all(list.targetInfos.map(async (t) => note(await askTarget(cdp, t))));
  } finally {
    cdp.close();
  }
}

/** Whether `t` takes a new session and answers a Runtime.evaluate on it. */
async function askTarget(cdp: RawCdp, t: TargetInfo): Promise<string> {
  const name = `${t.type} ${t.url.slice(0, 90)}${t.attached ? ' (attached)' : ''}`;
  if (!['page', 'service_worker', 'iframe', 'worker', 'other'].includes(t.type)) return `${name}: not asked`;
  const attached = await within(cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: t.targetId, flatten: true }), STEP_MS).catch(
    (err: Error) => err,
  );
  if (!attached || attached instanceof Error) return `${name}: no new session (${attached ? attached.message : `no answer in ${STEP_MS / 1000} s`})`;
  const answer = await within(
    cdp.send<{ result: { value?: unknown } }>('Runtime.evaluate', { expression: '1 + 1', returnByValue: true }, attached.sessionId),
    STEP_MS,
  ).catch((err: Error) => err);
  // Its session is dropped with the connection.
  if (!answer) return `${name}: attached, no Runtime.evaluate answer in ${STEP_MS / 1000} s`;
  return `${name}: ${answer instanceof Error ? `evaluate failed (${answer.message})` : 'answers'}`;
}

interface ChromiumProcess {
  pid: number;
  ppid: number;
  state: string;
  cpuSeconds: number;
  wchan: string;
  kind: string;
}

/** The Chromium processes of the browser using `userDataDir`: the browser and its descendants. */
function chromiumProcesses(userDataDir: string): ChromiumProcess[] {
  const all = new Map<number, ChromiumProcess & { cmd: string }>();
  const ticks = 100; // USER_HZ on Linux
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      if (!cmd.includes('chromium')) continue;
      const wchan = fs.readFileSync(`/proc/${entry}/wchan`, 'utf8');
      const type = /--type=(\S+)/.exec(cmd)?.[1] ?? 'browser';
      const extra = cmd.includes('--extension-process') ? ' (extension)' : /--utility-sub-type=(\S+)/.exec(cmd)?.[1] ?? '';
      all.set(Number(entry), {
        pid: Number(entry),
        ppid: Number(fields[1]),
        state: fields[0],
        cpuSeconds: (Number(fields[11]) + Number(fields[12])) / ticks,
        wchan,
        kind: `${type}${extra ? ` ${extra}` : ''}`,
        cmd,
      });
    } catch {
      // The process ended while it was read: not one of interest any more.
    }
  }
  const root = [...all.values()].find((p) => p.kind === 'browser' && p.cmd.includes(`--user-data-dir=${userDataDir}`));
  if (!root) return [];
  const mine = new Set([root.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all.values()) {
      if (!mine.has(p.pid) && mine.has(p.ppid)) {
        mine.add(p.pid);
        grew = true;
      }
    }
  }
  return [...all.values()].filter((p) => mine.has(p.pid)).map(({ cmd: _cmd, ...p }) => p);
}

/**
 * Every thread's stack of `pids`, written to `file` by gdb processes of their own (detached: a failed
 * test's worker is ended at once, and gdb takes seconds; only when TIDEMARK_E2E_GDB=1).
 */
function writeStacks(pids: number[], file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const pid of pids) {
    const out = fs.openSync(`${file}.${pid}`, 'w');
    spawn('gdb', ['-p', String(pid), '-batch', '-nx', '-ex', 'thread apply all bt 30'], { detached: true, stdio: ['ignore', out, out] }).unref();
    fs.closeSync(out);
  }
}

/**
 * What the browser of `userDataDir` (DevTools on `debugPort`) is doing, as one line of facts. Each fact
 * is also printed (stderr) as soon as it is known: the test's own time limit may end the test first.
 */
export async function describeStuckBrowser(debugPort: number, userDataDir: string): Promise<string> {
  const facts: string[] = [];
  const note = (fact: string) => {
    facts.push(fact);
    console.error(`[stuck browser ${new Date().toISOString()}] ${fact}`);
  };
  // First what cannot hang: the processes, then (gdb, in the background) their stacks.
  const procs = chromiumProcesses(userDataDir);
  await new Promise((r) => setTimeout(r, 1000));
  const after = new Map(chromiumProcesses(userDataDir).map((p) => [p.pid, p.cpuSeconds]));
  note(
    `processes (pid kind state wchan cpu-seconds +cpu-in-the-last-second): ${procs
      .map((p) => `${p.pid} ${p.kind} ${p.state} ${p.wchan || '-'} ${p.cpuSeconds.toFixed(2)} +${((after.get(p.pid) ?? p.cpuSeconds) - p.cpuSeconds).toFixed(2)}`)
      .join(', ')}`,
  );
  if (process.env.TIDEMARK_E2E_GDB === '1' && procs.length) {
    const file = path.join(process.cwd(), '.tmp', 'e2e-hangs', `stacks-${Date.now()}`);
    writeStacks(
      procs.map((p) => p.pid),
      file,
    );
    note(`thread stacks (being written) in ${file}.<pid>`);
  }
  await devToolsFacts(debugPort, note).catch((err: Error) => note(`DevTools check failed: ${err.message}`));
  return facts.join('; ');
}
