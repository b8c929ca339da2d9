// Runs the browser lanes and the PostgreSQL server lane at the same time (`npm test`, after the unit and
// SQLite server lane). Each spends much of its time waiting (on browsers, the server, PostgreSQL), so
// running them together takes far less time than one after the other; the Chromium lane's test that
// counts long tasks runs last and alone in its own lane (playwright.config.ts), after the others have
// ended. The first lane's output is shown as it comes; the others' is kept and shown when all have
// ended, so lanes never interleave. Exits with the first failing lane's status and says which failed.
import { spawn, type ChildProcess } from 'node:child_process';

interface Lane {
  name: string;
  script: string;
}

const LANES: Lane[] = [
  { name: 'Chromium lane', script: 'test:e2e' },
  { name: 'PostgreSQL server lane', script: 'test:server-postgres' },
  { name: 'Firefox lane', script: 'test:e2e-firefox' },
];

function run(lane: Lane, live: boolean, children: ChildProcess[]): Promise<{ lane: Lane; code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', lane.script], { stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'], env: process.env });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', (err) => {
      output += `\n${lane.name} could not be started: ${err.message}\n`;
      resolve({ lane, code: 1, output });
    });
    child.on('close', (code, signal) => resolve({ lane, code: code ?? (signal ? 1 : 0), output }));
  });
}

async function main(): Promise<void> {
  const children: ChildProcess[] = [];
  const stop = () => {
    for (const c of children) c.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const started = Date.now();
  const [live, ...kept] = LANES;
  console.log(`Running at the same time: ${live.name} (shown below), ${kept.map((l) => l.name).join(' and ')} (shown when all end).`);
  const results = await Promise.all(LANES.map((lane, i) => run(lane, i === 0, children)));
  for (const r of results.slice(1)) console.log(`\n===== ${r.lane.name} (ran beside the ${live.name}) =====\n${r.output}`);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const failed = results.filter((r) => r.code !== 0);
  if (failed.length === 0) {
    console.log(`All ${results.length} lanes passed in ${seconds} s.`);
    return;
  }
  for (const f of failed) console.error(`${f.lane.name} FAILED (exit status ${f.code}): its output is above.`);
  process.exitCode = failed[0].code;
}

void main();
