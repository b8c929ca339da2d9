// Debounced saving of form edits: changes collect for a moment, then go to the background as one
// update. Reports a state the form shows: Saving… / Saved / Queued offline / an error.
import type { BookmarkChanges } from '../../lib/model.js';
import type { WriteResult } from '../../lib/messaging/protocol.js';

export type SaveState = 'idle' | 'saving' | 'saved' | 'queued' | 'error';

export class AutoSaver {
  private pending: BookmarkChanges = {};
  private timer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private send: (changes: BookmarkChanges) => Promise<WriteResult>,
    private report: (state: SaveState, error?: string) => void,
    private delayMs = 500,
  ) {}

  /** Records an edit. Typing waits `delayMs` for more; `immediate` edits (toggles, pickers) go now. */
  change(changes: BookmarkChanges, immediate = false): void {
    this.pending = { ...this.pending, ...changes };
    this.report('saving');
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (immediate) void this.flush();
    else this.timer = setTimeout(() => void this.flush(), this.delayMs);
  }

  get hasPending(): boolean {
    return this.timer !== null || Object.keys(this.pending).length > 0;
  }

  /** Sends what is pending now (also when the popup closes). Sends are kept in order. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const changes = this.pending;
    this.pending = {};
    if (Object.keys(changes).length === 0) return this.chain;
    this.chain = this.chain.then(async () => {
      try {
        const result = await this.send(changes);
        if (!this.hasPending) this.report(result.state === 'queued' ? 'queued' : 'saved');
      } catch (err) {
        this.report('error', (err as Error).message);
      }
    });
    return this.chain;
  }
}
