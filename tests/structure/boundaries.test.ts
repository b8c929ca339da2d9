// The parts' boundaries are kept by the compiler (one tsconfig.json per part, project references):
// a probe file that crosses a boundary must make `tsc -b` fail with the diagnostic that names the
// crossing, and the real parts must build. Probes go into a copy of the parts in a temporary
// directory, so the working tree (and tests running beside this one) never see one. The copy's server
// part is its tsconfig.json and one file that uses lib/api (the whole server is built by the first
// test, on the real tree). Explicit `wxt/*` imports in pure parts are refused by the linter
// (eslint.config.js), not the compiler: a module import resolves whatever the part's globals are.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
let copy = '';

/** `tsc -b` on the given parts of the copy; the compiler's output and whether it succeeded. */
function build(...parts: string[]): { ok: boolean; output: string } {
  return tsc(copy, parts);
}

function tsc(dir: string, parts: string[]): { ok: boolean; output: string } {
  const res = spawnSync(process.execPath, [TSC, '-b', ...parts.map((p) => path.join(dir, p))], { cwd: dir, encoding: 'utf8' });
  return { ok: res.status === 0, output: `${res.stdout}${res.stderr}` };
}

function probe(file: string, text: string): void {
  fs.writeFileSync(path.join(copy, file), text);
}

/** Files that cross a boundary, each in the part it must not be able to cross from. */
const PROBES: Record<string, string> = {
  'lib/api/probe-browser.ts': 'export const id: string = browser.runtime.id;\n',
  'lib/api/probe-document.ts': 'export const title: string = document.title;\n',
  'lib/api/probe-node.ts': "import fs from 'node:fs';\nexport const exists = fs.existsSync;\n",
  // A probe of its own: a server file in the program could bring the DOM lib (linkedom) with it.
  'lib/api/probe-server.ts': "import { key } from '../../server/uses-api.js';\nexport const k = key;\n",
  'lib/anchoring/probe-browser.ts': 'export const id: string = browser.runtime.id;\n',
  'lib/painting/probe-browser.ts': 'export const id: string = browser.runtime.id;\n',
  'lib/anchoring/probe-node.ts': "import fs from 'node:fs';\nexport const exists = fs.existsSync;\n",
  'server/probe-background.ts': "import { startBackground } from '../lib/background/main.js';\nexport const start = startBackground;\n",
  'server/probe-extension-id.ts': "import { EXTENSION_PUBLIC_KEY } from '../lib/extension-id.js';\nexport const key = EXTENSION_PUBLIC_KEY;\n",
};

let probedResult: { ok: boolean; output: string } | undefined;

/**
 * Every probe at once, compiled by one `tsc -b` of the four parts (each tsc run costs seconds; tsc -b
 * goes on building a part whose references have errors, so each part's diagnostics are all there),
 * then removed again.
 */
function probed(): { ok: boolean; output: string } {
  if (!probedResult) {
    for (const [file, text] of Object.entries(PROBES)) probe(file, text);
    try {
      probedResult = build('lib/api', 'lib/anchoring', 'lib/painting', 'server');
    } finally {
      for (const file of Object.keys(PROBES)) fs.rmSync(path.join(copy, file));
    }
  }
  return probedResult;
}

/** The diagnostics the compiler printed for one file, one per line. */
function diagnosticsOf(output: string, file: string): string[] {
  return output.split('\n').filter((line) => line.startsWith(file) && / error TS\d+/.test(line));
}

beforeAll(() => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-boundaries-'));
  // The pure parts and the extension's lib/ folders the probes reach for.
  for (const p of ['tsconfig.base.json', 'lib', 'server/tsconfig.json']) {
    fs.cpSync(path.join(ROOT, p), path.join(copy, p), { recursive: true, filter: (src) => !src.endsWith('.test.ts') });
  }
  probe('server/uses-api.ts', "import { normalizeUrl } from '../lib/api/url.js';\nexport const key = normalizeUrl('https://example.com/');\n");
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
});

afterAll(() => {
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

describe('part boundaries (tsc -b on per-part tsconfigs)', () => {
  it('the real parts build as they are, and so does the copy the probes go into', () => {
    // Incremental: after `npm run typecheck` this only checks that nothing changed.
    const real = tsc(ROOT, ['lib/api', 'lib/anchoring', 'lib/painting', 'server']);
    expect(real.output).toBe('');
    expect(real.ok).toBe(true);
    const res = build('lib/api', 'lib/anchoring', 'lib/painting', 'server');
    expect(res.output).toBe('');
    expect(res.ok).toBe(true);
  }, 240_000);

  it('lib/api cannot touch extension APIs, the DOM, Node or the server', () => {
    const res = probed();
    expect(res.ok).toBe(false);
    expect(diagnosticsOf(res.output, 'lib/api/probe-browser.ts').join('\n')).toMatch(/error TS2304: Cannot find name 'browser'/);
    expect(diagnosticsOf(res.output, 'lib/api/probe-document.ts').join('\n')).toMatch(/error TS\d+: Cannot find name 'document'/);
    expect(diagnosticsOf(res.output, 'lib/api/probe-node.ts').join('\n')).toMatch(/error TS2307: Cannot find module 'node:fs'/);
  }, 240_000);

  it('lib/api cannot import the server', () => {
    const res = probed();
    expect(diagnosticsOf(res.output, 'lib/api/probe-server.ts').join('\n')).toMatch(
      /error TS6307: File '.*\/server\/uses-api\.ts' is not listed within the file list of project '.*\/lib\/api\/tsconfig\.json'/,
    );
  }, 240_000);

  it('anchoring and painting cannot touch extension APIs or Node', () => {
    const res = probed();
    expect(diagnosticsOf(res.output, 'lib/anchoring/probe-browser.ts').join('\n')).toMatch(/error TS2304: Cannot find name 'browser'/);
    expect(diagnosticsOf(res.output, 'lib/anchoring/probe-node.ts').join('\n')).toMatch(/error TS2307: Cannot find module 'node:fs'/);
    expect(diagnosticsOf(res.output, 'lib/painting/probe-browser.ts').join('\n')).toMatch(/error TS2304: Cannot find name 'browser'/);
  }, 240_000);

  it('the server cannot import extension code', () => {
    const res = probed();
    expect(diagnosticsOf(res.output, 'server/probe-background.ts').join('\n')).toMatch(
      /error TS6307: File '.*\/lib\/background\/main\.ts' is not listed within the file list of project '.*\/server\/tsconfig\.json'/,
    );
    // Reported where the file is first reached, which may be a file the first probe pulled in.
    expect(res.output).toMatch(
      /error TS6307: File '.*\/lib\/extension-id\.ts' is not listed within the file list of project '.*\/server\/tsconfig\.json'/,
    );
  }, 240_000);
});
