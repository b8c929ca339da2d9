// The web app's build (`npm run build:web`): the library UI of web/ for any browser, served by the
// server from dist/web (server/web/app/). Hashed files under assets/ (served as immutable), the
// service worker as /sw.js (its name must not change), nothing inline: the server's
// Content-Security-Policy allows only scripts and styles from files of its own origin.
import path from 'node:path';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';
import { preactWithoutInnerHtml } from './scripts/vite/preact-without-inner-html.js';

const WEB = path.resolve(import.meta.dirname, 'web');

/** Writes the build's file list into the service worker (web/sw.ts, PRECACHE), so it keeps exactly this build's app shell. */
function precacheList(): Plugin {
  return {
    name: 'tidemark:precache-list',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((name) => name.startsWith('assets/') && !name.endsWith('.map'))
        .map((name) => `/${name}`)
        .sort();
      const sw = Object.values(bundle).find((f) => f.type === 'chunk' && f.fileName === 'sw.js');
      if (!sw || sw.type !== 'chunk') return this.error('The service worker (sw.js) is missing from the build.');
      const placeholder = /(["'`])__TIDEMARK_PRECACHE__\1/;
      if (!placeholder.test(sw.code)) return this.error('The service worker has no __TIDEMARK_PRECACHE__ placeholder to fill.');
      sw.code = sw.code.replace(placeholder, JSON.stringify(JSON.stringify(files)));
      if (sw.imports.length) this.error(`The service worker must be one file (it is not a module worker), but it imports ${sw.imports.join(', ')}.`);
    },
  };
}

export default defineConfig({
  root: WEB,
  base: '/',
  publicDir: path.join(WEB, 'public'),
  plugins: [preact(), preactWithoutInnerHtml(), precacheList()],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    // No inline polyfill script (the policy forbids inline scripts); every browser the app supports preloads modules.
    modulePreload: { polyfill: false },
    // No data: URLs for small files: everything is a file of this origin.
    assetsInlineLimit: 0,
    target: 'es2022',
    rolldownOptions: {
      input: { index: path.join(WEB, 'index.html'), sw: path.join(WEB, 'sw.ts') },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
});
