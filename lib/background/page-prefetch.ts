// A saved page's highlights, asked for as soon as the background decides to inject the highlighter
// into it (on the page's load), so that the server's answer and the injection overlap: the
// highlighter's first request (pageHighlights) then finds them on the way or ready, instead of asking
// the server only once it runs. Taken once, by the same tab and frame for the same address, within a
// few seconds; anything else asks anew.

/** How long a prefetched answer is taken as current. */
const FRESH_MS = 5000;

interface Prefetched<T> {
  url: string;
  at: number;
  answer: Promise<T>;
}

export class PagePrefetch<T> {
  readonly #entries = new Map<string, Prefetched<T>>();

  start(tabId: number, frameId: number, url: string, ask: () => Promise<T>): void {
    const now = Date.now();
    for (const [key, e] of this.#entries) if (now - e.at >= FRESH_MS) this.#entries.delete(key);
    const answer = ask();
    // A failure is the answer of the request that takes it (pageHighlights reports it there); one never
    // taken belongs to an injection that failed, which is reported itself.
    answer.catch(() => undefined);
    this.#entries.set(`${tabId}:${frameId}`, { url, at: now, answer });
  }

  /** The answer started for this tab, frame and address, if it is still current (once). */
  take(tabId: number, frameId: number, url: string): Promise<T> | undefined {
    const key = `${tabId}:${frameId}`;
    const e = this.#entries.get(key);
    this.#entries.delete(key);
    return e && e.url === url && Date.now() - e.at < FRESH_MS ? e.answer : undefined;
  }
}
