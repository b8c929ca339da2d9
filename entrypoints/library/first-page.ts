// Runs before the library's app is loaded and rendered: the first page of the list it opens on is
// asked for at once (lib/library/list-requests.ts), so the request is on its way while the rest
// of the page's script is parsed and the page is laid out; the sidebar loads after it.
import { askFirstPage, listQuery } from '../../lib/library/list-requests.js';
import { parseState } from '../../lib/library/url-state.js';

const state = parseState(location.search);
if (state.tab === 'bookmarks') askFirstPage(listQuery(state));
