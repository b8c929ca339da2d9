// Does one user's hostile page or file hold up anybody else? Runs `serve` in a child process on a
// fresh data directory (with --allow-private-network, so it can read pages this script serves on
// loopback) and sends the probe's shapes, each while another user calls GET /user back to back:
//   - GET /import/url/parse of a page 50,000 <div> deep (about 250 KB) and of one 10,000 deep;
//   - PUT /bookmark/{id}/cache of 10,000 nested <div> (a pro user's uploaded copy);
//   - POST /import/file of <DL> nested 400,000 deep without <H3> (1.6 MB), beside another user's
//     84-byte import;
//   - the heaviest pages the limits let through: 800 blocks of <div> 500 deep (4.4 MB), read for
//     GET /import/url/parse and uploaded as a permanent copy, where the parse itself takes seconds.
// Prints, for each, how long its answer took and GET /user's median, p99 and slowest meanwhile,
// after the same with nothing parsed.
//
//   npx tsx bench/server/parse-isolation.ts
//
// Prints figures only; it asserts nothing.
import http from 'node:http';
import { BenchData, timedGetUser } from './child-server.js';

const data = new BenchData('parse-isolation');
const hostile = data.tokenFor('hostile@example.test', '--pro');
const bystander = data.tokenFor('bystander@example.test');

const nested = (depth: number, tag = 'div') => `<!DOCTYPE html><html><head><title>Deep</title></head><body>${`<${tag}>`.repeat(depth)}x${`</${tag}>`.repeat(depth)}</body></html>`;
/** Legal but costly: as deep as the limit allows, as large as a fetched page may be. */
const heavy = `<!DOCTYPE html><html><head><title>Heavy</title></head><body>${`${'<div>'.repeat(500)}<p>x</p>${'</div>'.repeat(500)}`.repeat(800)}</body></html>`;
const pages = new Map([
  ['/deep-50000', nested(50_000)],
  ['/deep-10000', nested(10_000)],
  ['/small', nested(3)],
  ['/heavy', heavy],
]);
const pageServer = http.createServer((req, res) => {
  const page = pages.get(req.url ?? '');
  res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
  res.end(page ?? 'not here');
});
await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
const pageOrigin = `http://127.0.0.1:${(pageServer.address() as { port: number }).port}`;

const server = await data.serve('--allow-private-network');
const api = server.api;
const getUser = () => timedGetUser(api, bystander);
const multipart = (part: string, filename: string, content: string) => {
  const form = new FormData();
  form.append(part, new Blob([content], { type: 'text/html' }), filename);
  return form;
};

/** Runs `request`, calling GET /user back to back until it answers; prints its time and theirs. */
async function beside(name: string, request: () => Promise<Response>): Promise<void> {
  const latencies: number[] = [];
  const t = performance.now();
  let done = false;
  const pending = request().then(async (res) => {
    const body = await res.text();
    done = true;
    return { status: res.status, body };
  });
  while (!done) latencies.push(await getUser());
  const { status, body } = await pending;
  const took = performance.now() - t;
  const said = (/"errorMessage":"([^"]*)"/.exec(body)?.[1] ?? '').slice(0, 70);
  console.log(`${name.padEnd(44)} ${String(status).padStart(3)} in ${(took / 1000).toFixed(2).padStart(6)} s | ${spread(latencies)} | ${said}`);
}

/** GET /user's times as printed: how many, median, p99 and slowest. */
function spread(latencies: number[]): string {
  latencies.sort((a, b) => a - b);
  const at = (q: number) => (latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0).toFixed(1);
  return `GET /user x${String(latencies.length).padEnd(5)} median ${at(0.5).padStart(5)} ms, p99 ${at(0.99).padStart(6)} ms, slowest ${at(1).padStart(6)} ms`;
}

/** GET /user back to back for `ms` with nothing else running: what the machine itself adds. */
async function idle(ms: number): Promise<void> {
  const latencies: number[] = [];
  const end = performance.now() + ms;
  while (performance.now() < end) latencies.push(await getUser());
  console.log(`${'idle (nothing parsed), 10 s'.padEnd(44)}                | ${spread(latencies)} |`);
}

for (let i = 0; i < 20; i++) await getUser(); // warm up
const auth = { authorization: `Bearer ${hostile}` };
// The first parses start the pool's workers (about 1 s each, loading the parsers); two small
// pages at once first keep that cost out of the figures.
await Promise.all(
  [hostile, bystander].map(async (token) => {
    const res = await fetch(`${api}/import/url/parse?url=${encodeURIComponent(`${pageOrigin}/small`)}`, { headers: { authorization: `Bearer ${token}` } });
    await res.text();
  }),
);

await idle(10_000);
for (const path of ['/deep-50000', '/deep-10000']) {
  await beside(`url/parse, ${path.slice(6)} nested <div>`, () => fetch(`${api}/import/url/parse?url=${encodeURIComponent(pageOrigin + path)}`, { headers: auth }));
}
const created = await (await fetch(`${api}/bookmark`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ link: 'https://bench.example/deep' }) })).json();
await beside('PUT cache, 10000 nested <div>', () =>
  fetch(`${api}/bookmark/${created.item._id}/cache`, { method: 'PUT', headers: auth, body: multipart('cache', 'page.html', nested(10_000)) }),
);
await beside(`url/parse, 800 x 500 nested <div> (${(heavy.length / 1e6).toFixed(1)} MB)`, () => fetch(`${api}/import/url/parse?url=${encodeURIComponent(`${pageOrigin}/heavy`)}`, { headers: auth }));
await beside(`PUT cache, 800 x 500 nested <div>`, () =>
  fetch(`${api}/bookmark/${created.item._id}/cache`, { method: 'PUT', headers: auth, body: multipart('cache', 'page.html', heavy) }),
);
const deepDl = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${'<DL>'.repeat(400_000)}`;
const small = '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF="https://small.example/">small</A>\n</DL>\n';
let smallTook = 0;
await beside(`import/file, <DL> 400000 deep (${(deepDl.length / 1e6).toFixed(1)} MB)`, async () => {
  const deep = fetch(`${api}/import/file`, { method: 'POST', headers: auth, body: multipart('import', 'deep.html', deepDl) });
  const t = performance.now();
  await (await fetch(`${api}/import/file`, { method: 'POST', headers: { authorization: `Bearer ${bystander}` }, body: multipart('import', 'small.html', small) })).text();
  smallTook = performance.now() - t;
  return deep;
});
console.log(`another user's ${small.length}-byte import beside it: ${smallTook.toFixed(0)} ms`);

await server.stop();
pageServer.close();
data.remove();
