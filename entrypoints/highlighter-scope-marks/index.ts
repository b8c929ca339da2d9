import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { providePart } from '../../lib/highlighter/parts.js';
import { ScopeMarks } from '../../lib/painting/scope-marks.js';

// The painter's scope marks (lib/painting/scope-marks.ts), injected by the background into a frame
// whose highlighter paints without a registered highlight style sheet: the highlighter was injected by
// a click on a page the extension has no access to by itself.
export default defineUnlistedScript(() => providePart('scope-marks', () => new ScopeMarks()));
