// Runs two test lanes at the same time (`npm test`: the PostgreSQL server lane and the Firefox lane).
// The Firefox lane spends much of its time waiting on Firefox and the server, so running the two together
// takes less time than one after the other. The first lane's output is shown as
// it comes; the second's is kept and shown when it ends, so the two never interleave. Exits with the first
// failing lane's status, after both have ended, and says which failed.
import { spawn, type ChildProcess } from 'node:child_process';

interface Lane {
  name: string;
  script: string;
}

const LANES: [Lane, Lane] = [
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
  console.log(`Running at the same time: ${LANES[0].name} (shown below) and ${LANES[1].name} (shown when it ends).`);
  const [first, second] = await Promise.all([run(LANES[0], true, children), run(LANES[1], false, children)]);
  console.log(`\n===== ${second.lane.name} (ran beside the ${first.lane.name}) =====\n${second.output}`);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const failed = [first, second].filter((r) => r.code !== 0);
  if (failed.length === 0) {
    console.log(`Both lanes passed in ${seconds} s.`);
    return;
  }
  for (const f of failed) console.error(`${f.lane.name} FAILED (exit status ${f.code}): its output is above.`);
  process.exitCode = failed[0].code;
}

void main();
