// For jsdom test files: WXT's `wxt/browser` test alias imports all of `wxt/testing`, which loads
// esbuild, which refuses to start under jsdom. Such files mock `wxt/browser` with this instead:
//   vi.mock('wxt/browser', () => import('./helpers/jsdom-browser.js'));
import { fakeBrowser } from 'wxt/testing/fake-browser';

export const browser = fakeBrowser;
export default fakeBrowser;
