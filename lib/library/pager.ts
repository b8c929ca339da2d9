// The library list's paging: pages of 50 loaded one after another as the list scrolls, never all
// at once; a new query starts over, and answers for an older query are dropped. Pure (the loader
// is passed in), so it is unit-tested without a browser.
export interface PageAnswer<T> {
  items: T[];
  count: number;
  offline?: boolean;
  cachedAt?: number | null;
}

export interface PagerSnapshot<T> {
  items: T[];
  /** Total matches the server reported. */
  count: number;
  /** Pages loaded so far. */
  pages: number;
  loading: boolean;
  /** Every match is loaded. */
  done: boolean;
  error: string | null;
  offline: boolean;
  cachedAt: number | null;
}

export class Pager<T extends { _id: number }> {
  private generation = 0;
  private state: PagerSnapshot<T> = Pager.empty<T>();
  private inflight: Promise<void> | null = null;

  constructor(
    private load: (page: number) => Promise<PageAnswer<T>>,
    private onChange: (s: PagerSnapshot<T>) => void,
    readonly pageSize = 50,
  ) {}

  static empty<T>(): PagerSnapshot<T> {
    return { items: [], count: 0, pages: 0, loading: false, done: false, error: null, offline: false, cachedAt: null };
  }

  get snapshot(): PagerSnapshot<T> {
    return this.state;
  }

  private set(next: Partial<PagerSnapshot<T>>) {
    this.state = { ...this.state, ...next };
    this.onChange(this.state);
  }

  /**
   * Starts over with a new loader (a new query): the first page is loaded at once. What was shown
   * stays until it arrives (no blank list while typing), then is replaced.
   */
  reset(load?: (page: number) => Promise<PageAnswer<T>>): Promise<void> {
    if (load) this.load = load;
    this.generation++;
    this.inflight = null;
    this.state = { ...this.state, pages: 0, done: false, error: null };
    return this.more();
  }

  /** Loads the next page unless one is loading or everything is there. */
  more(): Promise<void> {
    if (this.inflight) return this.inflight;
    if (this.state.done) return Promise.resolve();
    const gen = this.generation;
    const page = this.state.pages;
    this.set({ loading: true, error: null });
    const run = (async () => {
      try {
        const answer = await this.load(page);
        if (gen !== this.generation) return;
        const kept = page === 0 ? [] : this.state.items;
        const seen = new Set(kept.map((i) => i._id));
        const fresh = answer.items.filter((i) => !seen.has(i._id));
        const items = [...kept, ...fresh];
        this.set({
          items,
          count: answer.count,
          pages: page + 1,
          loading: false,
          done: answer.items.length < this.pageSize || items.length >= answer.count,
          offline: !!answer.offline,
          cachedAt: answer.cachedAt ?? null,
        });
      } catch (err) {
        if (gen !== this.generation) return;
        const message = (err as Error).message || 'The list could not be loaded.';
        // A failed first page shows nothing of the previous query (it would look like this one's answer).
        this.set(page === 0 ? { ...Pager.empty<T>(), error: message } : { loading: false, error: message });
      } finally {
        if (gen === this.generation) this.inflight = null;
      }
    })();
    this.inflight = run;
    return run;
  }

  /** Replaces items in place (after an edit) or drops them (moved out of this view). */
  patch(update: (item: T) => T | null): void {
    const before = this.state.items.length;
    const items = this.state.items.map(update).filter((i): i is T => i !== null);
    this.set({ items, count: Math.max(0, this.state.count - (before - items.length)) });
  }
}
