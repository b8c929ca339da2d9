// A loopback load balancer for multi-instance tests: each request (not each connection) goes to
// the next server in turn, as a round-robin balancer without sticky sessions sends it. The answer
// carries `x-served-by: <index>` so a test can see which instance answered.
//
// A request that could not even connect (the instance is down: ECONNREFUSED) is sent to the next
// instance, as a balancer's health handling would; one that reached an instance which then died
// answers 502, so the client never takes it for acknowledged.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobin {
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
  /** The instances' origins; replace an entry when an instance restarts on another port. */
  targets: string[];
  /** How many answers each instance gave. */
  served: number[];
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024 * 1024;

function forward(target: string, req: http.IncomingMessage, body: Buffer, agent: http.Agent): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const url = new URL(target);
    const upstream = http.request(
      { host: url.hostname, port: url.port, method: req.method, path: req.url, headers: req.headers, agent },
      resolve,
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}

export async function startRoundRobin(targets: string[] = []): Promise<RoundRobin> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const served: number[] = targets.map(() => 0);
  let next = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      void (async () => {
        if (size > MAX_BODY) {
          res.writeHead(413, { 'content-type': 'text/plain' });
          res.end(`the test balancer takes bodies up to ${MAX_BODY} bytes`);
          return;
        }
        const body = Buffer.concat(chunks);
        const first = next++ % balancer.targets.length;
        for (let tried = 0; tried < balancer.targets.length; tried++) {
          const index = (first + tried) % balancer.targets.length;
          try {
            const answer = await forward(balancer.targets[index], req, body, agent);
            served[index] = (served[index] ?? 0) + 1;
            res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-served-by': String(index) });
            answer.pipe(res);
            answer.on('error', () => res.destroy());
            return;
          } catch (error) {
            // Not connected at all: the instance never saw the request, another one may take it.
            if ((error as NodeJS.ErrnoException).code === 'ECONNREFUSED') continue;
            res.writeHead(502, { 'content-type': 'text/plain', 'x-served-by': String(index) });
            res.end(`instance ${index} failed while answering: ${(error as Error).message}`);
            return;
          }
        }
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('no instance is reachable');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const balancer: RoundRobin = {
    origin: `http://127.0.0.1:${port}`,
    targets,
    served,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
  return balancer;
}
