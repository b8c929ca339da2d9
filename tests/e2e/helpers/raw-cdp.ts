// A bare CDP connection to the browser (flat sessions), without Playwright: nothing enabled on
// attach, nothing paused unless asked. Used where Playwright's own connection cannot help: the
// stuck-browser diagnosis (Playwright may be what waits) and the popup's heights from its first
// frame (Playwright's later connections are not told about the extension's popup).
import { NodeWebSocketTransport } from 'puppeteer-core/internal/node/NodeWebSocketTransport.js';

export interface CdpEvent {
  method: string;
  params: any;
  sessionId?: string;
}

export class RawCdp {
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  private listeners: ((e: CdpEvent) => void)[] = [];
  private constructor(private readonly transport: NodeWebSocketTransport) {
    transport.onmessage = (data) => {
      const msg = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } } & Partial<CdpEvent>;
      if (msg.id === undefined) {
        if (msg.method) for (const listen of this.listeners) listen(msg as CdpEvent);
        return;
      }
      const waiting = this.pending.get(msg.id);
      if (!waiting) return;
      this.pending.delete(msg.id);
      if (msg.error) waiting.reject(new Error(msg.error.message));
      else waiting.resolve(msg.result);
    };
  }

  static async open(wsUrl: string): Promise<RawCdp> {
    return new RawCdp(await NodeWebSocketTransport.create(wsUrl));
  }

  /** The browser's own DevTools address, from its HTTP endpoint. */
  static async browserUrl(debugPort: number): Promise<string> {
    const version = (await (await fetch(`http://127.0.0.1:${debugPort}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    return version.webSocketDebuggerUrl;
  }

  send<T = any>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.transport.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  /** Events (messages without an id), from the browser's session and every attached one. */
  onEvent(listen: (e: CdpEvent) => void): void {
    this.listeners.push(listen);
  }

  close(): void {
    this.transport.close();
  }
}
