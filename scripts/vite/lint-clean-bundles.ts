// Vite plugins that keep markup-from-strings out of the extension's bundles, so `web-ext lint` (and a
// store reviewer) finds no innerHTML / createContextualFragment to question:
// - Preact's one `innerHTML = dangerouslySetInnerHTML.__html` assignment becomes an error: Tidemark
//   never renders HTML from a string (no component uses dangerouslySetInnerHTML).
// - On Firefox (strict_min_version 140, which always has the CSS Custom Highlight API), the rangy
//   painting fallback is left out of the build: createPainter() never loads it there.
// Each rewrite fails the build when its pattern is not found exactly once, so a dependency update
// cannot silently bring the warnings (or an unexpected change of meaning) back.
import type { Plugin } from 'vite';

/** Preact's DOM diff, as the browser build ships it (dist/preact.module.js, or .mjs). */
const PREACT_MODULE = /[\\/]node_modules[\\/]preact[\\/]dist[\\/]preact\.(module\.js|mjs)$/;
/** `(u.innerHTML=h.__html)` in the minified diff: the dangerouslySetInnerHTML branch. */
const PREACT_INNER_HTML = /\((\w+)\.innerHTML=(\w+)\.__html\)/g;

export function preactWithoutInnerHtml(): Plugin {
  return {
    name: 'tidemark:preact-without-inner-html',
    enforce: 'pre',
    transform(code, id) {
      if (!PREACT_MODULE.test(id)) return null;
      const hits = code.match(PREACT_INNER_HTML)?.length ?? 0;
      if (hits !== 1) {
        this.error(`Expected Preact's dangerouslySetInnerHTML assignment once in ${id}, found it ${hits} times: update scripts/vite/lint-clean-bundles.ts.`);
      }
      const replaced = code.replace(
        PREACT_INNER_HTML,
        '(()=>{throw new Error("Tidemark does not render HTML strings: dangerouslySetInnerHTML is not supported")})()',
      );
      return { code: replaced, map: null };
    },
  };
}

/** The module createPainter() imports for the rangy fallback (lib/painting/class-applier-painter.ts). */
const CLASS_APPLIER = /[\\/]lib[\\/]painting[\\/]class-applier-painter\.ts$/;

/** Firefox build only: the rangy class-applier painter is replaced by a module that says why it is absent. */
export function firefoxWithoutRangyFallback(): Plugin {
  return {
    name: 'tidemark:firefox-without-rangy-fallback',
    enforce: 'pre',
    load(id) {
      if (!CLASS_APPLIER.test(id)) return null;
      return [
        'export class ClassApplierPainter {',
        '  constructor() {',
        '    throw new Error("This browser lacks the CSS Custom Highlight API; the Firefox build requires Firefox 140 or newer, which has it.");',
        '  }',
        '}',
      ].join('\n');
    },
  };
}
