// No import circles in the product code (lib/, components/, entrypoints/, server/). A circle makes
// "which part may import which" meaningless, the bundler's module order arbitrary, and a module's
// top-level code may run before what it imports is defined. `import type` counts too: a type shared
// by two modules belongs in a module below both. Test files are left out (they import what they test).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PARTS = ['lib', 'components', 'entrypoints', 'server'];
const SOURCE = /\.(ts|tsx)$/;
const TEST = /\.(test|spec)\.(ts|tsx)$/;

/**
 * Circles known and being fixed elsewhere, each as its modules (paths from the root). An entry that no
 * longer matches a circle fails the test too, so it is removed once the circle is gone.
 */
const ALLOWED: string[][] = [];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...sourceFiles(full));
    } else if (SOURCE.test(entry.name) && !TEST.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(full);
    }
  }
  return out;
}

/** The relative module specifiers of a file's import and export-from statements, type-only included. */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const statement of source.statements) {
    const spec =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    if (spec?.startsWith('.')) out.push(spec);
  }
  return out;
}

/** The file a relative specifier names: `./x.js` is the source file `./x.ts` or `./x.tsx`. */
function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  return candidates.find((c) => SOURCE.test(c) && fs.existsSync(c) && fs.statSync(c).isFile());
}

function importGraph(): Map<string, string[]> {
  const files = PARTS.flatMap((p) => sourceFiles(path.join(ROOT, p)));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiers(file)
      .map((spec) => resolve(file, spec))
      .filter((t): t is string => t !== undefined && known.has(t));
    graph.set(path.relative(ROOT, file), [...new Set(targets)].map((t) => path.relative(ROOT, t)));
  }
  return graph;
}

/** Strongly connected components with more than one module, or a module importing itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** The circle's modules and one path around it, for the failure message: `a, b, c: a -> b -> a`. */
function oneLoop(graph: Map<string, string[]>, members: string[]): string {
  const inside = new Set(members);
  const start = members[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const loop = [start];
        for (let at = v; at !== start; at = previous.get(at)!) loop.splice(1, 0, at);
        return `${members.join(', ')}: ${[...loop, start].join(' -> ')}`;
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return members.join(', ');
}

it('the import graph of lib/, components/, entrypoints/ and server/ has no circles', () => {
  const graph = importGraph();
  // The parse found the graph: a broken resolver would find no edges and no circles.
  expect(graph.get(path.join('entrypoints', 'background', 'index.ts'))).toContain(path.join('lib', 'background', 'main.ts'));
  const found = circles(graph);
  const key = (members: string[]) => members.join('\n');
  const allowed = new Set(ALLOWED.map((m) => key([...m].sort())));
  const unexpected = found.filter((c) => !allowed.has(key(c))).map((c) => oneLoop(graph, c));
  expect(unexpected, 'import circles: move what the modules share into a module below them').toEqual([]);
  const stale = [...allowed].filter((a) => !found.some((c) => key(c) === a));
  expect(stale, 'ALLOWED lists a circle that no longer exists: remove the entry').toEqual([]);
});
