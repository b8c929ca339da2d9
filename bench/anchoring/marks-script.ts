/**
 * The painter's scope marks as the extension loads them on the click path: the built
 * `highlighter-scope-marks.js` (with V8's compile hint, wxt.config.ts build:done), run as a script of
 * its own in a task of its own before the paint. Used by run.ts and paint-marks.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const HINT = '//# allFunctionsCalledOnLoad\n';

/** The built marks script (in `outDir`, a Chrome build): as it ships, or without the compile hint (its first line). */
export function marksScript(outDir: string, hint = true): string {
  const file = path.join(outDir, 'highlighter-scope-marks.js');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build the extension first (npm run -s build)`);
  const text = fs.readFileSync(file, 'utf8');
  if (!text.startsWith(HINT)) throw new Error(`${file} does not start with V8's compile hint (wxt.config.ts build:done)`);
  return hint ? text : text.slice(HINT.length);
}

/**
 * Runs `src` as a classic script of the page in a task of its own: a timer callback named
 * tidemarkLoadMarks, whose CPU time a trace gives (the script's compilation and its run), as the
 * extension's injection of the part runs in a task of its own before the paint. The script hands the
 * marks over as the extension's part does (providePart: a property of the global object), where the
 * bench's paint() takes them.
 */
export function loadScriptInOwnTask(page: Page, src: string): Promise<void> {
  // A string, not a function: tsx would wrap a named function expression in a helper the page lacks.
  return page.evaluate(`new Promise((resolve) => setTimeout(function tidemarkLoadMarks() {
    const s = document.createElement('script');
    s.textContent = ${JSON.stringify(src)};
    document.head.append(s);
    s.remove();
    resolve();
  }, 0))`);
}
