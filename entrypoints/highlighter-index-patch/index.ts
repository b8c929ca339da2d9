import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { patchTextIndex } from '../../lib/anchoring/text-index-patch.js';
import { providePart } from '../../lib/highlighter/parts.js';

// The text index's patcher, injected by the background into a frame whose highlighter asks for it: once
// a long page has been indexed, so that a change to the page re-walks only what changed (page-index.ts).
export default defineUnlistedScript(() =>
  providePart('index-patch', (index, records) => {
    try {
      return patchTextIndex(index, records);
    } catch (err) {
      // A change the patcher did not expect: the index is built again (null), as without it.
      console.error('Tidemark: the page index could not be patched; indexing the page again.', err);
      return null;
    }
  }),
);
