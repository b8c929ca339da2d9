import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { approximateSearch } from '../../lib/anchoring/anchor-approximate.js';
import { providePart } from '../../lib/highlighter/parts.js';

// Approximate anchoring, injected by the background into a frame whose highlighter asks for it: when a
// highlight cannot be placed by its exact text (the page was edited).
export default defineUnlistedScript(() => providePart('approximate', approximateSearch));
