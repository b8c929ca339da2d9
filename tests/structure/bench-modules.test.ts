// The benches run parts of the extension in plain Node through tsx (bench/extension/index-sync.ts runs
// the saved-link index against a real server), outside WXT's build, where `import.meta.env` does not
// exist. A module those parts import that reads it unguarded breaks the bench at load, long after the
// change that did it. This runs that part of the bench, on 2,000 links.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

it('the saved-link index bench runs the extension modules in Node, outside the extension build', () => {
  const script = `const { benchIndex } = await import(${JSON.stringify(path.join(ROOT, 'bench/extension/index-sync.ts'))}); console.log(JSON.stringify(await benchIndex(2000)));`;
  const res = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 90_000 });
  expect(res.stderr.trim()).toBe('');
  expect(res.status).toBe(0);
  const figures = JSON.parse(res.stdout.trim().split('\n').pop()!) as { links: number; requests: number; lookupUs: number };
  expect(figures.links).toBe(2000);
  expect(figures.requests).toBeGreaterThan(0);
}, 120_000);
