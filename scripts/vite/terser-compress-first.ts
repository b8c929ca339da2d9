// A Vite plugin that runs terser's compressor (no renaming) on a chunk before the build's own minifier
// (oxc), which then renames and compresses as usual. Used for the two scripts with a size target (see
// wxt.config.ts): the injected highlighter (15 KB: 15,190 bytes gzipped, against 15,328 with terser
// alone) and the background service worker (30 KB, and it cannot load code on demand: 31,448 -> 30,917
// bytes on 2026-11-27, where either minifier alone gains at most 20: terser in oxc's place; oxc twice
// nothing). terser's own renaming is left off: oxc renames better afterwards (terser renaming too:
// 30,966). Costs the build a few seconds for each of the two.
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
