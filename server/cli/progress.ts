// Progress on stderr for long commands: a bar redrawn in place when stderr is a terminal, plain
// lines (at most one per `lineEvery` items, plus the last) when it is a file or a pipe.

interface ProgressOptions {
  total: number;
  /** text after the counts, e.g. "created 10, duplicates 2, failed 0" */
  label?: () => string;
  stream?: NodeJS.WriteStream;
  /** for non-terminals: print a line every this many items */
  lineEvery?: number;
}

const WIDTH = 30;

export class Progress {
  private readonly stream: NodeJS.WriteStream;
  private readonly tty: boolean;
  private lastLine = -1;
  private lastDraw = 0;

  constructor(private readonly options: ProgressOptions) {
    this.stream = options.stream ?? process.stderr;
    this.tty = this.stream.isTTY === true;
  }

  update(done: number): void {
    const { total } = this.options;
    const label = this.options.label ? `  ${this.options.label()}` : '';
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
    if (this.tty) {
      const now = Date.now();
      if (done < total && now - this.lastDraw < 80) return;
      this.lastDraw = now;
      const filled = total === 0 ? WIDTH : Math.round((done / total) * WIDTH);
      const bar = '█'.repeat(filled) + '░'.repeat(WIDTH - filled);
      this.stream.write(`\r${bar} ${String(percent).padStart(3)}% ${done}/${total}${label}\x1b[K`);
      return;
    }
    const every = this.options.lineEvery ?? 1000;
    const step = Math.floor(done / every);
    if (done < total && step === this.lastLine) return;
    this.lastLine = step;
    this.stream.write(`progress: ${done}/${total} (${percent}%)${label}\n`);
  }

  /** Ends the bar's line on a terminal. */
  finish(): void {
    if (this.tty) this.stream.write('\n');
  }
}
