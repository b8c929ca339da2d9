// Web pages for the browser tests, with Open Graph metadata, served on loopback. Reached as
// http://localhost:<port>/... (see tidemark-server.ts for why localhost).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestPage {
  title: string;
  ogTitle?: string;
  description?: string;
  image?: string;
  body?: string;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function pageHtml(p: TestPage): string {
  const meta = [
    p.ogTitle ? `<meta property="og:title" content="${escape(p.ogTitle)}">` : '',
    p.description ? `<meta property="og:description" content="${escape(p.description)}">` : '',
    p.image ? `<meta property="og:image" content="${escape(p.image)}">` : '',
  ].join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(p.title)}</title>${meta}</head>
<body><h1>${escape(p.title)}</h1>${p.body ?? '<p>Some text to read.</p>'}
<script>window.goTo = (path) => history.pushState({}, '', path);</script></body></html>`;
}

export class TestSite {
  private pages = new Map<string, TestPage>();
  private constructor(private server: http.Server) {}

  static async start(): Promise<TestSite> {
    let site!: TestSite;
    const server = http.createServer((req, res) => {
      // A path nobody added gets a plain page of its own.
      const page = site.pages.get((req.url ?? '/').split('?')[0]) ?? { title: `Page ${req.url}` };
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(pageHtml(page));
    });
    site = new TestSite(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return site;
  }

  get origin(): string {
    return `http://localhost:${(this.server.address() as AddressInfo).port}`;
  }

  add(path: string, page: TestPage): string {
    this.pages.set(path, page);
    return this.origin + path;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
