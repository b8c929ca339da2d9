// Export benchmark: imports a generated 100k-bookmark Netscape file into a fresh account with the
// `import` command, starts `serve` on that data directory, then downloads
// GET /bookmarks/0/export.{html,csv,md} and prints, per format, the time to the last byte, the
// size, and the server's peak RSS (VmHWM) before and after: exports stream in keyset-paged
// batches, so the peak should not grow with the library.
//
//   npx tsx bench/import/export.ts [--bookmarks 100000]
//
// Prints figures only; it asserts nothing. Linux only (reads /proc/<pid>/status).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runCli, startServe } from '../../tests/helpers/process.js';
import { generateNetscape } from './generate.js';

const { values } = parseArgs({ options: { bookmarks: { type: 'string' } } });
const TOTAL = Number(values.bookmarks ?? 100_000);

/** Peak and current resident memory of a process, MB. */
function memoryOf(pid: number): { peakMb: number; rssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
}

const dir = mkdtempSync(join(tmpdir(), 'tidemark-export-bench-'));
try {
  const file = join(dir, 'bookmarks.html');
  writeFileSync(file, generateNetscape(TOTAL));
  const email = 'export-bench@example.test';
  runCli(['user:create', '--email', email, '--password', 'benchmark', '--data', dir]);
  const token = JSON.parse(runCli(['token:create', '--email', email, '--data', dir]).stdout).access_token as string;
  let t0 = performance.now();
  const imported = runCli(['import', '--email', email, '--file', file, '--data', dir]);
  if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`);
  const summary = JSON.parse(imported.stdout) as { created: number; collections: number };
  console.log(`imported ${summary.created} bookmarks in ${summary.collections} collections in ${((performance.now() - t0) / 1000).toFixed(1)} s (import command)`);

  const serve = await startServe(['--port', '0', '--data', dir, '--rate-limit', '100000000']);
  try {
    const pid = serve.child.pid!;
    // Warm the server up with a small request so the baseline includes the loaded code.
    await (await fetch(`${serve.url}/bookmarks/0?perpage=50`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
    const base = memoryOf(pid);
    console.log(`serve after start: RSS ${base.rssMb.toFixed(0)} MB, peak ${base.peakMb.toFixed(0)} MB\n`);
    console.log('format   time to last byte   size (MB)   rows     serve peak RSS (MB)');
    for (const format of ['html', 'csv', 'md'] as const) {
      t0 = performance.now();
      const res = await fetch(`${serve.url}/bookmarks/0/export.${format}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`export.${format}: ${res.status} ${await res.text()}`);
      // The whole file is kept here, in the client, to count its entries; the figure that matters is the server's RSS.
      const text = await res.text();
      const ms = performance.now() - t0;
      const bytes = Buffer.byteLength(text);
      const rows = (text.match(format === 'html' ? /<DT><A /g : format === 'csv' ? /\r\n"?\d/g : /^#+ \[/gm) ?? []).length;
      const mem = memoryOf(pid);
      console.log(
        `${format.padEnd(8)} ${`${(ms / 1000).toFixed(2)} s`.padStart(17)}   ${(bytes / 1e6).toFixed(1).padStart(9)}   ${String(rows).padEnd(8)} ${mem.peakMb.toFixed(0)}`,
      );
    }
    console.log(`\n${TOTAL} bookmarks were generated; bookmarklets are skipped on import.`);
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
