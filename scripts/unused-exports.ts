// Lists exports that no other file imports and fails if there is one (`npm run unused-exports`; `npm run
// lint` runs it after eslint, so CI does). Reads
// every TypeScript file of the parts (not node_modules, not build output) with the compiler's
// parser and resolves relative imports and re-exports; a file's exports count as used when any
// file (tests included) imports them by name, by `import *`, or re-exports them. Entry points (WXT
// entrypoints, the CLI, configs, scripts, bench and test files) are where use starts, so their own
// exports are not reported.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SKIP_DIRS = new Set(['node_modules', '.output', '.wxt', '.tsbuild', '.git', 'test-results', 'playwright-report', 'data']);
/**
 * Files whose exports are used from outside the import graph (WXT, vitest, playwright, the CLI and its
 * commands, loaded by name, npm scripts, the parse pool's worker entry `worker.mjs`).
 */
const ENTRY = [/^entrypoints\//, /^scripts\//, /^server\/cli\/commands\//, /^server\/services\/parse-pool\/tasks\.ts$/, /^bench\//, /^tests\//, /\.test\.tsx?$/, /^[^/]+\.config\.ts$/, /^server\/cli\.ts$/, /^\.ci\//];

function files(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(e.name)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) files(p, out);
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec).replace(/\.(m?js|jsx)$/, '');
  for (const c of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) if (fs.existsSync(c)) return c;
  return null;
}

const all = files(ROOT);
const exported = new Map<string, Map<string, number>>(); // file -> name -> line
const used = new Map<string, Set<string>>(); // file -> names imported elsewhere ('*': all)
const mark = (file: string, name: string) => (used.get(file) ?? used.set(file, new Set()).get(file)!).add(name);

for (const file of all) {
  const src = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const mine = new Map<string, number>();
  const line = (n: ts.Node) => src.getLineAndCharacterOfPosition(n.getStart()).line + 1;
  const exportedHere = (n: ts.Node) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const st of src.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const target = resolve(file, st.moduleSpecifier.text);
      const b = st.importClause;
      if (!target || !b) continue;
      if (b.name) mark(target, 'default');
      if (b.namedBindings && ts.isNamespaceImport(b.namedBindings)) mark(target, '*');
      if (b.namedBindings && ts.isNamedImports(b.namedBindings)) for (const el of b.namedBindings.elements) mark(target, (el.propertyName ?? el.name).text);
    } else if (ts.isExportDeclaration(st)) {
      const target = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? resolve(file, st.moduleSpecifier.text) : null;
      if (!st.exportClause) {
        if (target) mark(target, '*');
      } else if (ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) {
          if (target) mark(target, (el.propertyName ?? el.name).text);
          mine.set(el.name.text, line(el));
        }
      }
    } else if (ts.isExportAssignment(st)) {
      mine.set('default', line(st));
    } else if (exportedHere(st)) {
      const isDefault = ((ts.canHaveModifiers(st) ? ts.getModifiers(st) : undefined) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      if (isDefault) mine.set('default', line(st));
      else if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) mine.set(d.name.text, line(d));
      } else if ('name' in st && st.name && ts.isIdentifier(st.name as ts.Node)) mine.set((st.name as ts.Identifier).text, line(st));
    }
  }
  // Dynamic imports: import('./x.js') uses all of x.
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) {
      const target = resolve(file, n.arguments[0].text);
      if (target) mark(target, '*');
    }
    if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
      const target = resolve(file, n.argument.literal.text);
      if (target) mark(target, n.qualifier && ts.isIdentifier(n.qualifier) ? n.qualifier.text : '*');
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  // A type exported beside the function or value whose signature names it is part of that export's
  // API (and declaration emit needs it exported): it counts as used.
  const exportedTexts = src.statements.filter((st) => exportedHere(st)).map((st) => ({ st, text: st.getText() }));
  for (const st of src.statements) {
    if (!exportedHere(st) || !(ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st))) continue;
    const name = st.name.text;
    const named = new RegExp(`\\b${name}\\b`);
    if (exportedTexts.some((e) => e.st !== st && named.test(e.text))) mark(file, name);
  }
  exported.set(file, mine);
}

const findings: string[] = [];
for (const [file, names] of exported) {
  const rel = path.relative(ROOT, file);
  if (ENTRY.some((re) => re.test(rel))) continue;
  const u = used.get(file) ?? new Set();
  if (u.has('*')) continue;
  for (const [name, line] of names) if (!u.has(name)) findings.push(`${rel}:${line}  ${name}`);
}
if (findings.length) {
  console.error(`Exports nothing imports (${findings.length}): remove the export, or the code if nothing uses it.\n${findings.sort().join('\n')}`);
  process.exit(1);
}
console.log(`unused exports: none (${all.length} files)`);
