import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { listThroughBackground } from '../../lib/library/extension-host.js';
import { askFirstPage, listQuery } from '../../lib/library/list-requests.js';
import { parseState } from '../../lib/library/url-state.js';

// A classic script in the library page's <head> (entrypoints/library/index.html): it runs while
// the page is parsed, before the page's modules are loaded, and asks for the first page of the list
// the page opens on; the app takes that answer when it renders (lib/library/list-requests.ts). The
// sidebar loads after the list.
export default defineUnlistedScript(() => {
  const state = parseState(location.search);
  if (state.tab === 'bookmarks') askFirstPage({ list: listThroughBackground }, listQuery(state));
});
