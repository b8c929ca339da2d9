// A Vite plugin that runs terser's compressor (no renaming) on a chunk before the build's own minifier
// (oxc), which then renames and compresses as usual: smaller code than either minifier alone. Used only
// for the two scripts with a size budget (wxt.config.ts), the injected highlighter and the background
// service worker, neither of which fits its budget without it. terser's own renaming is left off: oxc
// renames better afterwards. Costs the build a few seconds for each of the two.
import type { Plugin } from 'vite';
import { minify } from 'terser';

export function terserCompressFirst(): Plugin {
  return {
    name: 'tidemark:terser-compress-first',
    async renderChunk(code, _chunk, outputOptions) {
      const out = await minify(code, { compress: { passes: 3 }, mangle: false, ecma: 2020, sourceMap: !!outputOptions.sourcemap });
      if (out.code === undefined) this.error('terser returned no code');
      // With `sourceMap: true` terser gives the map as JSON text.
      return { code: out.code, map: typeof out.map === 'string' ? out.map : null };
    },
  };
}
