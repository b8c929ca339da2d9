import { defineBackground } from 'wxt/utils/define-background';
import { startBackground } from '../../lib/background/main.js';

// The service worker (Chrome) / event page (Firefox). Everything lives in lib/background.
export default defineBackground({
  main() {
    const app = startBackground();
    // The context-menu, command and alarm handlers the listeners call, reachable from the worker's
    // console and the end-to-end tests (which cannot click native menus): the same functions.
    (globalThis as { tidemark?: unknown }).tidemark = {
      onMenuClicked: app.onMenuClicked,
      onCommand: app.onCommand,
      onAlarm: app.onAlarm,
      // The omnibox keyword's handlers (tests cannot type into the address bar): the listeners call these.
      omnibox: app.omnibox,
      indexState: () => ({ state: app.index.state, size: app.index.size }),
      // The bookmark sync: its alarm's pull and its passes (tests and the bench wait for them).
      bookmarkSync: app.bookmarkSync,
    };
  },
});
