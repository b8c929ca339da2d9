import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { HighlightEditor } from '../../lib/highlighter/editor.js';
import { providePart } from '../../lib/highlighter/parts.js';

// The highlighter's editor (selection toolbar, making and changing highlights), injected by the
// background into a frame whose highlighter asks for it: on the first selection or highlight command.
export default defineUnlistedScript(() => providePart('editor', (host) => new HighlightEditor(host)));
