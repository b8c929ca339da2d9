// A slow server for browser tests: an HTTP proxy on loopback that holds every request for a fixed
// time before passing it to the real server, and passes the answer back as it comes. The extension
// is signed in to the proxy's address (http://localhost:<port>, its built-in host permission).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export class DelayingProxy {
  private constructor(
    private readonly server: http.Server,
    /** How long each request waits before it is passed on (ms); may be changed between steps. */
    public delayMs: number,
  ) {}

  /** While true, every request's connection is closed without an answer. */
  down = false;

  /** Starts a proxy in front of `target` (an origin such as http://localhost:4010). */
  static async start(target: string, delayMs: number): Promise<DelayingProxy> {
    const to = new URL(target);
    let proxy: DelayingProxy;
    const server = http.createServer((req, res) => {
      // Down: the connection is closed unanswered, as by a server that stopped.
      if (proxy.down) return void req.socket.destroy();
      setTimeout(() => {
        const upstream = http.request(
          { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', (err) => {
          // The server is down or closed the connection: the extension sees what it would see without the proxy.
          res.destroy(err);
        });
        req.pipe(upstream);
      }, proxy.delayMs);
    });
    proxy = new DelayingProxy(server, delayMs);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get origin(): string {
    return `http://localhost:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
