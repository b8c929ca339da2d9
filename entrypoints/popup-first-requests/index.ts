import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { askFirstRequests } from '../../lib/popup/first-requests.js';

// A classic script in the popup's <head> (entrypoints/popup/index.html): it runs as soon as the
// popup's document starts, before the popup's modules are loaded, and asks the background for the
// page's bookmark and the cached collection list; the app takes the answers (lib/popup/first-requests.ts).
export default defineUnlistedScript(() => askFirstRequests());
