import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';
import { FIREFOX_ADDON_ID } from './lib/api/extension-identity.js';
import { EXTENSION_PUBLIC_KEY } from './lib/extension-id.js';
import { preactWithoutInnerHtml } from './scripts/vite/preact-without-inner-html.js';
import { terserCompressFirst } from './scripts/vite/terser-compress-first.js';
import { polyfillAsEsm } from './scripts/vite/polyfill-as-esm.js';
import { HIGHLIGHT_STYLES_FILE, highlightApiCss } from './lib/painting/highlight-css.js';

// The extension build (Chrome and Firefox, MV3). Entry points live in entrypoints/, UI in
// components/, logic in lib/. `npm run build` builds both; scripts/build-extension.ts does the same
// from code (npm start, the end-to-end tests).
export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  // `npm run zip`: the store packages in .output/ (tidemark-<package.json version>-chrome.zip and
  // -firefox.zip) and, for addons.mozilla.org's reviewers, the sources that rebuild the extension
  // (-sources.zip). The server, benches and build output are not part of the extension.
  zip: {
    artifactTemplate: '{{name}}-{{version}}-{{browser}}.zip',
    sourcesTemplate: '{{name}}-{{version}}-sources.zip',
    excludeSources: ['server/**', 'bench/**', 'tests/**', 'dist/**', 'data/**', 'docs/**', 'test-results/**', 'playwright-report/**', '**/*.test.ts', '**/*.test.tsx', '*.log'],
    // The root tsconfig.json references every part's: the build stops at a reference it cannot find.
    includeSources: ['server/tsconfig.json', 'bench/tsconfig.json', 'tests/tsconfig.json'],
  },
  // No auto-imports: every global (browser, storage, defineBackground...) is an explicit import.
  imports: false,
  manifestVersion: 3,
  hooks: {
    // The two scripts with a size budget, the highlighter injected into pages (15 KB gzipped) and the
    // background service worker (30 KB; it cannot load code on demand): terser's compressor first, then
    // the default minifier (scripts/vite/terser-compress-first.ts). Neither fits its budget without it.
    // Only these two: terser takes a few seconds on each, and minutes over all the pages' bundles.
    'vite:build:extendConfig': (entrypoints, config) => {
      if (entrypoints.length !== 1 || !['background', 'highlighter'].includes(entrypoints[0].name)) return;
      config.plugins = [...(config.plugins ?? []), terserCompressFirst()];
      // Rolldown warns when a plugin's callbacks take over a second; terser's one call does, by design.
      config.build = { ...config.build, rolldownOptions: { ...config.build?.rolldownOptions, checks: { ...config.build?.rolldownOptions?.checks, pluginTimings: false } } };
    },
    // The painter's ::highlight() rules as a file, registered with the loader as a content-script style
    // sheet (lib/background/highlighter-registration.ts): pages painted automatically have them from
    // their first style computation, and Chromium never restyles the whole page for a sheet added later.
    'build:publicAssets': (_wxt, files) => {
      files.push({ relativeDest: HIGHLIGHT_STYLES_FILE, contents: `${highlightApiCss()}\n` });
    },
    // The scope marks' script (lib/painting/scope-marks.ts) is injected only to paint, and nearly all its
    // functions first run in the task that paints the page's highlights, where V8 compiled them one by one
    // (1.2-1.6 ms of that task for 1,000 highlights, from traces). V8's explicit compile hint (Chrome 136+;
    // a comment elsewhere) has them compiled when the script is loaded, in the injection's task. The
    // minifier drops comments, so it is added to the built file.
    'build:done': (wxt) => {
      const file = join(wxt.config.outDir, 'highlighter-scope-marks.js');
      if (existsSync(file)) writeFileSync(file, `//# allFunctionsCalledOnLoad\n${readFileSync(file, 'utf8')}`);
    },
  },
  vite: () => ({
    // polyfillAsEsm: webextension-polyfill without the bundler's CommonJS wrapper (scripts/vite/polyfill-as-esm.ts).
    plugins: [preact(), preactWithoutInnerHtml(), polyfillAsEsm()],
    // No modulepreload polyfill: every browser the extension supports has modulepreload, and the popup (one
    // classic script, entrypoints/popup-app/index.tsx) would load it as a module of its own.
    build: { sourcemap: false, modulePreload: { polyfill: false } },
  }),
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    // Pins the Chrome extension id, so the OAuth redirect URL (https://<id>.chromiumapp.org/oauth) never changes.
    ...(browser === 'chrome' ? { key: EXTENSION_PUBLIC_KEY } : {}),
    // Least privilege: everything else is optional and asked for when needed. "bookmarks" is not: the
    // bookmark sync's listeners must be registered when the worker starts (the browser wakes it for
    // them), and an optional permission's API is absent until granted.
    permissions: ['storage', 'contextMenus', 'activeTab', 'scripting', 'identity', 'alarms', 'bookmarks'],
    // The default server (http://localhost:8787). Match patterns cannot name a port in every browser, so: the host.
    host_permissions: ['http://localhost/*'],
    // "tabs": the saved-page badge reads the address of tabs the user did not click on.
    optional_permissions: ['tabs'],
    // Another server: asked for on the options page when the user picks it.
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    action: { default_title: '__MSG_actionTitle__' },
    commands: {
      'save-page': { suggested_key: { default: 'Alt+Shift+S' }, description: '__MSG_commandSavePage__' },
      'highlight-selection': { suggested_key: { default: 'Alt+Shift+H' }, description: '__MSG_commandHighlight__' },
      _execute_action: { suggested_key: { default: 'Alt+Shift+K' }, description: '__MSG_commandOpenPopup__' },
      // No default key (Chrome allows four); the user picks one in the browser's shortcut settings.
      'open-side-panel': { description: '__MSG_commandSidePanel__' },
      'open-library': { suggested_key: { default: 'Alt+Shift+L' }, description: '__MSG_commandOpenLibrary__' },
    },
    // Typing "tm" and a space in the address bar searches the library.
    omnibox: { keyword: 'tm' },
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: FIREFOX_ADDON_ID,
              // 140: data_collection_permissions, and the CSS Custom Highlight API is always there
              // (the rangy painting fallback is never needed on Firefox).
              strict_min_version: '140.0',
              // Saved pages (address, title, description) go to the server the user signs in to, and
              // so do addresses of open tabs while the saved-link index is not synced (url/exists).
              data_collection_permissions: { required: ['browsingActivity', 'websiteContent'] },
            },
            // Firefox for Android reads data_collection_permissions from 142 on (untested there).
            gecko_android: { strict_min_version: '142.0' },
          },
        }
      : { minimum_chrome_version: '120' }),
  }),
});
