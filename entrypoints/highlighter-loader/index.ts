import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { startLoader } from '../../lib/highlighter/loader.js';

// The small content script registered (scripting.registerContentScripts) for pages Tidemark may read:
// it loads the highlighter on a text selection and paints saved pages. See lib/highlighter/loader.ts.
export default defineUnlistedScript(() => startLoader());
