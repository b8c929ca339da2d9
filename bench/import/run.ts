// Import converter benchmark: generates a Netscape bookmark file (nested folders, tags,
// descriptions), converts it in a fresh child process and prints the time and peak RSS. For
// comparison it also times a full-DOM parse of the same file with linkedom.
//
//   npx tsx bench/import/run.ts [--bookmarks 100000] [--keep]
//
// Prints figures only; it asserts nothing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateNetscape } from './generate.js';

type Mode = 'read-only' | 'convert' | 'linkedom-dom';

interface ChildReport {
  mode: Mode;
  ms: number;
  peakRssMb: number;
  bookmarks?: number;
  folders?: number;
  tags?: number;
}

const args = process.argv.slice(2);

if (args[0] === '--child') {
  await runChild(args[1] as Mode, args[2]!);
} else {
  await runParent();
}

async function runParent(): Promise<void> {
  const count = Number(valueOf('--bookmarks') ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'tidemark-import-bench-'));
  const file = join(dir, 'bookmarks.html');
  const started = performance.now();
  writeFileSync(file, generateNetscape(count));
  const sizeMb = statSync(file).size / 1024 / 1024;
  console.log(`generated ${count} bookmarks, ${sizeMb.toFixed(1)} MB in ${(performance.now() - started).toFixed(0)} ms: ${file}`);

  const reports: ChildReport[] = [];
  for (const mode of ['read-only', 'convert', 'linkedom-dom'] as Mode[]) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', mode, file], {
      encoding: 'utf8',
      maxBuffer: 1024 * 1024,
    });
    if (child.status !== 0) {
      console.log(`${mode}: failed (${child.status})\n${child.stderr}`);
      continue;
    }
    reports.push(JSON.parse(child.stdout.trim().split('\n').pop()!) as ChildReport);
  }

  console.log('');
  console.log('mode           time (ms)   peak RSS (MB)   result');
  for (const r of reports) {
    const result = [
      r.bookmarks !== undefined ? `${r.bookmarks} bookmarks` : '',
      r.folders !== undefined ? `${r.folders} folders` : '',
      r.tags !== undefined ? `${r.tags} tags` : '',
    ].filter(Boolean).join(', ');
    console.log(`${r.mode.padEnd(14)} ${r.ms.toFixed(0).padStart(9)}   ${r.peakRssMb.toFixed(0).padStart(13)}   ${result}`);
  }
  console.log('\nread-only = node + tsx + reading the file (baseline); convert = convertImportFile (htmlparser2 events);');
  console.log('linkedom-dom = linkedom parseHTML of the same file and a walk over its anchors, for comparison.');

  if (args.includes('--keep')) console.log(`kept ${file}`);
  else rmSync(dir, { recursive: true, force: true });
}

async function runChild(mode: Mode, file: string): Promise<void> {
  const buf = readFileSync(file);
  const started = performance.now();
  let report: ChildReport;
  if (mode === 'convert') {
    const { convertImportFile } = await import('../../server/services/import/index.js');
    const t0 = performance.now();
    const result = convertImportFile(buf, 'bookmarks.html');
    report = {
      mode,
      ms: performance.now() - t0,
      peakRssMb: 0,
      bookmarks: result.count.bookmarks,
      folders: result.count.folders,
      tags: result.count.tags,
    };
  } else if (mode === 'linkedom-dom') {
    const { parseHTML } = await import('linkedom');
    const t0 = performance.now();
    const { document } = parseHTML(buf.toString('utf8'));
    let anchors = 0;
    // linkedom keeps attribute names as written, so HREF must be asked for in capitals
    for (const a of document.querySelectorAll('a')) if (a.getAttribute('href') ?? a.getAttribute('HREF')) anchors++;
    report = {
      mode,
      ms: performance.now() - t0,
      peakRssMb: 0,
      bookmarks: anchors,
      folders: document.querySelectorAll('h3').length,
    };
  } else {
    report = { mode, ms: performance.now() - started, peakRssMb: 0 };
  }
  report.peakRssMb = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify(report));
}

function valueOf(flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}
