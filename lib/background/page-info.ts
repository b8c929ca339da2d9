// Reads a page's title, description and cover from its metadata (Open Graph, Twitter cards, plain
// meta tags) with activeTab + scripting, falling back to the tab's title and URL. Whatever the page
// says is untrusted text: it is checked, trimmed and bounded here, and only ever shown as text.
import { browser, type Browser } from 'wxt/browser';
import { parseHttpUrl } from '../api/url.js';
import type { PageInfo } from '../messaging/protocol.js';

interface RawPageInfo {
  title?: unknown;
  excerpt?: unknown;
  cover?: unknown;
}

/**
 * Runs INSIDE the page (scripting.executeScript serialises this function): it must not use
 * anything from outside its own body.
 */
export function extractPageInfo(): RawPageInfo {
  const meta = (...names: string[]): string => {
    for (const name of names) {
      const el = document.querySelector(`meta[property="${name}"], meta[name="${name}"]`);
      const content = el?.getAttribute('content')?.trim();
      if (content) return content;
    }
    return '';
  };
  const absolute = (href: string): string => {
    if (!href) return '';
    try {
      return new URL(href, document.baseURI).href;
    } catch {
      return '';
    }
  };
  const linkImage = document.querySelector('link[rel="image_src"]')?.getAttribute('href') ?? '';
  return {
    title: meta('og:title', 'twitter:title') || document.title,
    excerpt: meta('og:description', 'twitter:description', 'description'),
    cover: absolute(meta('og:image', 'og:image:url', 'twitter:image', 'twitter:image:src') || linkImage),
  };
}

function text(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  // Collapse whitespace and drop control characters; the result is shown as text only.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const clean = value.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** Longest title kept from a page (longer ones are cut, and the popup says so). */
const PAGE_TITLE_MAX = 500;

/** What the page said, made safe, with the tab's own title and URL as the fallback. */
export function cleanPageInfo(raw: RawPageInfo | null | undefined, tab: { url: string; title?: string }): PageInfo {
  const cover = typeof raw?.cover === 'string' && parseHttpUrl(raw.cover) && raw.cover.length <= 2048 ? raw.cover : '';
  const title = text(raw?.title, PAGE_TITLE_MAX) || text(tab.title, PAGE_TITLE_MAX) || tab.url;
  const info: PageInfo = { url: tab.url, title, excerpt: text(raw?.excerpt, 1000), cover };
  if (title.length === PAGE_TITLE_MAX && title.endsWith('…')) info.titleCutAt = PAGE_TITLE_MAX;
  return info;
}

/** Reads the metadata of the page in `tab`; never takes longer than `timeoutMs`. */
export async function readPageInfo(tab: Browser.tabs.Tab & { url: string }, timeoutMs = 400): Promise<PageInfo> {
  if (tab.id === undefined) return cleanPageInfo(null, tab);
  const run = browser.scripting
    .executeScript({ target: { tabId: tab.id }, func: extractPageInfo })
    .then((results) => (results?.[0]?.result as RawPageInfo | undefined) ?? null)
    .catch(() => null);
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs));
  return cleanPageInfo(await Promise.race([run, timeout]), tab);
}
