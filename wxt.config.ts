import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';

// The extension build. Entry points live in entrypoints/, UI in components/, logic in lib/.
export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  vite: () => ({
    plugins: [preact()],
  }),
  manifest: {
    name: 'Tidemark',
    description: 'Save pages, organise them into collections and highlight what matters.',
  },
});
