// The baseline: a bare node:http server answering one fixed JSON body. Started as a child process
// by run.ts so it gets a core of its own like the real server does.
import http from 'node:http';

const body = process.argv[2] ?? '{}';
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const addr = server.address() as { port: number };
  process.stdout.write(`bare listening on http://127.0.0.1:${addr.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
