// A Vite plugin that keeps markup-from-strings out of the extension's bundles, so `web-ext lint` (and a
// store reviewer) finds no innerHTML to question: Preact's one `innerHTML = dangerouslySetInnerHTML.__html`
// assignment becomes an error, as Tidemark never renders HTML from a string (no component uses
// dangerouslySetInnerHTML). The rewrite fails the build when its pattern is not found exactly once, so
// a Preact update cannot silently bring the warning (or an unexpected change of meaning) back.
// (rangy's createContextualFragment lives only in entrypoints/highlighter-fallback-painter/index.ts, which
// the Firefox build leaves out.)
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
