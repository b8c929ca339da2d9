// Start-up bench: the compiled server (dist/, scripts/build-server.ts) against the sources run
// through tsx, side by side in one run, with the same code as one bundle for comparison. For each start: the time from spawning the process to the
// first answered request (GET /health), the CPU time the process used until then (the figure other
// load on the machine moves least), and its resident memory (VmRSS) then and after a second's idling. Starts alternate between the two, on a data directory migrated
// beforehand (a restart, the common case), and each figure is the median of the runs.
//   npm run bench:startup [-- --runs 7]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildServer } from '../../scripts/build-server.js';
import { prepareCliBundle } from '../../tests/helpers/cli-bundle.js';
import { loadAverage } from './work-meter.js';

const { values } = parseArgs({ options: { runs: { type: 'string' } } });
const RUNS = Number(values.runs ?? 7);
const ROOT = path.resolve(import.meta.dirname, '..', '..');

interface Variant {
  name: string;
  args: string[];
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** CPU time (user + system) the process has used, in ms: unlike the wall time, barely moved by other load. */
function cpuMs(pid: number): number {
  // Fields after the command name (which is in parentheses): utime and stime are the 12th and 13th.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function freePort(): Promise<number> {
  return import('node:net').then(
    ({ createServer }) =>
      new Promise((resolve) => {
        const srv = createServer().listen(0, '127.0.0.1', () => {
          const { port } = srv.address() as { port: number };
          srv.close(() => resolve(port));
        });
      }),
  );
}

/** One start: spawn, ask /health until it answers, read the memory, stop. */
async function startOnce(v: Variant, dataDir: string): Promise<{ ms: number; cpu: number; rss: number; rssIdle: number }> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [...v.args, 'serve', '--port', String(port), '--data', dataDir, '--log-level', 'warn'], {
    cwd: ROOT,
    stdio: 'ignore',
    env: { ...process.env, TIDEMARK_LOG_FORMAT: 'json' },
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    // Polling is the measurement here: the first request that gets an answer marks the start.
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        if (res.ok) break;
      } catch {
        /* not listening yet */
      }
      if (child.exitCode !== null) throw new Error(`${v.name} exited with ${child.exitCode}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const ms = performance.now() - t0;
    const rss = rssMb(child.pid!);
    const cpu = cpuMs(child.pid!);
    await new Promise((r) => setTimeout(r, 1000));
    return { ms, cpu, rss, rssIdle: rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const distDir = path.join(ROOT, '.tmp', 'bench-startup-dist');
await buildServer(distDir);
// The tests' one-bundle build of the same code (tests/helpers/cli-bundle.ts): what the compiled tree
// would gain as a bundle instead (docs/operations.md).
const bundle = await prepareCliBundle();
const variants: Variant[] = [
  { name: 'compiled (node dist/server/cli.js)', args: [path.join(distDir, 'server', 'cli.js')] },
  { name: 'one bundle (the tests\' cli-bundle)', args: [bundle] },
  { name: 'sources (node --import tsx server/cli.ts)', args: ['--import', 'tsx', path.join(ROOT, 'server', 'cli.ts')] },
];
const dataDirs = variants.map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-startup-')));
try {
  // The first start of each creates and migrates its database: not counted.
  for (const [i, v] of variants.entries()) await startOnce(v, dataDirs[i]!);
  const results = variants.map(() => [] as { ms: number; cpu: number; rss: number; rssIdle: number }[]);
  for (let run = 0; run < RUNS; run++) {
    for (const [i, v] of variants.entries()) results[i]!.push(await startOnce(v, dataDirs[i]!));
  }
  process.stdout.write(`Server start-up, ${RUNS} starts each, alternating; SQLite, migrated data directory; load average ${loadAverage()}\n\n`);
  process.stdout.write('| Server | Start to first answer (median, min-max) | CPU to first answer | RSS at first answer | RSS 1 s later |\n|---|---|---|---|---|\n');
  for (const [i, v] of variants.entries()) {
    const r = results[i]!;
    const ms = r.map((x) => x.ms);
    process.stdout.write(
      `| ${v.name} | ${median(ms).toFixed(0)} ms (${Math.min(...ms).toFixed(0)}-${Math.max(...ms).toFixed(0)}) | ${median(r.map((x) => x.cpu)).toFixed(0)} ms | ${median(r.map((x) => x.rss)).toFixed(0)} MB | ${median(r.map((x) => x.rssIdle)).toFixed(0)} MB |\n`,
    );
  }
} finally {
  for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
  fs.rmSync(distDir, { recursive: true, force: true });
}
