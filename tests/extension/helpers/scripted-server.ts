// A loopback HTTP server whose answers a test scripts, for failures the real service cannot be made
// to produce on cue (a 503, a 429 with Retry-After, a token endpoint that refuses). Requests go over
// real HTTP through the real fetch.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** `raw`: sent as it is (a web page, say) instead of `body` as JSON. */
export type Answer = { status: number; body?: unknown; raw?: string; headers?: Record<string, string> } | 'drop';

export class ScriptedServer {
  readonly seen: SeenRequest[] = [];
  private scripts = new Map<string, Answer[]>();
  private fallback = new Map<string, Answer>();
  private constructor(private server: http.Server) {}

  static async start(): Promise<ScriptedServer> {
    let self!: ScriptedServer;
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const path = (req.url ?? '/').split('?')[0];
        const key = `${req.method} ${path}`;
        self.seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
        const answer = self.scripts.get(key)?.shift() ?? self.fallback.get(key) ?? { status: 404, body: { result: false, status: 404, errorMessage: `No script for ${key}` } };
        if (answer === 'drop') {
          req.socket.destroy();
          return;
        }
        res.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.headers ?? {}) });
        res.end(answer.raw ?? (answer.body === undefined ? '' : JSON.stringify(answer.body)));
      });
    });
    self = new ScriptedServer(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return self;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answers for `METHOD /path`, used once each in order. */
  script(route: string, ...answers: Answer[]): this {
    this.scripts.set(route, [...(this.scripts.get(route) ?? []), ...answers]);
    return this;
  }

  /** The answer for `METHOD /path` once the scripted ones are used up. */
  always(route: string, answer: Answer): this {
    this.fallback.set(route, answer);
    return this;
  }

  requests(route: string): SeenRequest[] {
    return this.seen.filter((r) => `${r.method} ${r.path.split('?')[0]}` === route);
  }

  reset(): void {
    this.seen.length = 0;
    this.scripts.clear();
    this.fallback.clear();
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
