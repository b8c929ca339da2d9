// Does the server keep answering while it converts a large import? Runs `serve` in a child
// process on a fresh data directory, uploads a Netscape file of just under 50 MB to
// POST /import/file from another child process, and meanwhile calls GET /user as another user
// back to back from this one, printing the latencies of those calls (idle, and during the import).
//
//   npx tsx bench/import/responsive.ts [--bookmarks 260000]
//   npx tsx bench/import/responsive.ts --nested 40000   (one bookmark in folders nested that deep: refused, after parsing)
//
// Prints figures only; it asserts nothing.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BenchData, timedGetUser } from '../server/child-server.js';
import { generateNetscape } from './generate.js';

const args = process.argv.slice(2);
const at = args.indexOf('--bookmarks');
const count = at >= 0 ? Number(args[at + 1]) : 260_000;
const nestedAt = args.indexOf('--nested');
const depth = nestedAt >= 0 ? Number(args[nestedAt + 1]) : 0;
const data = new BenchData('import-responsive');
const importer = data.tokenFor('importer@example.test');
const bystander = data.tokenFor('bystander@example.test');

const file = join(data.dir, 'bookmarks.html');
/** One bookmark inside `levels` nested folders. */
const nestedNetscape = (levels: number) =>
  '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n' +
  '<DT><H3>f</H3>\n<DL><p>\n'.repeat(levels) +
  '<DT><A HREF="https://deep.example/">deep</A>\n' +
  '</DL><p>\n'.repeat(levels) +
  '</DL>\n';
writeFileSync(file, depth ? nestedNetscape(depth) : generateNetscape(count));
console.log(`file: ${depth ? `1 bookmark in folders nested ${depth} deep` : `${count} bookmarks`}, ${(statSync(file).size / 1024 / 1024).toFixed(1)} MB`);

const server = await data.serve();
const origin = server.origin;
const getUser = () => timedGetUser(server.api, bystander);
for (let i = 0; i < 20; i++) await getUser(); // warm up
const idle: number[] = [];
for (let i = 0; i < 200; i++) idle.push(await getUser());

// The upload runs in its own process, so building and sending 50 MB does not slow this one's probes.
const uploader = `
  const { readFileSync } = require('node:fs');
  const form = new FormData();
  form.append('import', new Blob([readFileSync(process.argv[1])], { type: 'text/html' }), 'bookmarks.html');
  const t = performance.now();
  fetch(process.argv[2], { method: 'POST', headers: { authorization: 'Bearer ' + process.argv[3] }, body: form })
    .then(async (res) => { const body = await res.json(); console.log(JSON.stringify({ status: res.status, ms: performance.now() - t, bookmarks: body.count && body.count.bookmarks, error: body.errorMessage })); });
`;
const up = spawn(process.execPath, ['-e', uploader, file, `${origin}/rest/v1/import/file`, importer], { stdio: ['ignore', 'pipe', 'inherit'] });
let report = '';
up.stdout.on('data', (c) => (report += String(c)));
let done = false;
void once(up, 'exit').then(() => (done = true));
const during: number[] = [];
while (!done) during.push(await getUser());

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const line = (name: string, xs: number[]) =>
  console.log(`${name.padEnd(24)} n=${String(xs.length).padStart(5)}  p50 ${pct(xs, 50).toFixed(1)} ms  p99 ${pct(xs, 99).toFixed(1)} ms  max ${Math.max(...xs).toFixed(1)} ms`);
const r = JSON.parse(report.trim() || '{}') as { status?: number; ms?: number; bookmarks?: number; error?: string };
console.log(`import answered ${r.status} in ${r.ms?.toFixed(0)} ms (${r.bookmarks ?? r.error} bookmarks)`);
line('GET /user idle', idle);
line('GET /user during import', during);
await server.stop();
data.remove();
