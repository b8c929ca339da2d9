// A Vite plugin that gives webextension-polyfill (a UMD file) the `module` and `exports` its CommonJS
// branch expects and exports what that branch sets as an ES module's default. The polyfill's own code
// runs unchanged, when the bundle starts, with the same result, without the bundler's CommonJS interop
// (a lazy-require wrapper and a namespace copy), which would cost a few hundred bytes gzipped in the
// background (30 KB budget) and in every page's script. The build fails when the UMD header is not the
// one this relies on, so a polyfill update cannot silently take another branch.
import type { Plugin } from 'vite';

const POLYFILL = /[\\/]node_modules[\\/]webextension-polyfill[\\/]dist[\\/]browser-polyfill\.js$/;
/** The UMD header's CommonJS branch: taken when `exports` is defined, it hands `module` to the factory. */
const COMMONJS_BRANCH = 'else if (typeof exports !== "undefined") {\n    factory(module);\n  }';

export function polyfillAsEsm(): Plugin {
  return {
    name: 'tidemark:polyfill-as-esm',
    enforce: 'pre',
    transform(code, id) {
      if (!POLYFILL.test(id)) return null;
      if (code.split(COMMONJS_BRANCH).length !== 2) {
        this.error(`webextension-polyfill's UMD header changed (${id}): check scripts/vite/polyfill-as-esm.ts.`);
      }
      return { code: `var module = { exports: {} }, exports = module.exports;\n${code}\nexport default module.exports;\n`, map: null };
    },
  };
}
