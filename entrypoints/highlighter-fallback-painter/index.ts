import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { ClassApplierPainter } from '../../lib/painting/class-applier-painter.js';
import { provideFallbackPainter } from '../../lib/painting/fallback-slot.js';

// The rangy class-applier painter, injected by the background before the highlighter only into frames
// without the CSS Custom Highlight API (see lib/painting/fallback-slot.ts). Not in the Firefox build:
// Firefox 140+ (its strict_min_version) always has the API (lib/browser-differences.ts).
export default defineUnlistedScript({
  exclude: ['firefox'],
  main: () => provideFallbackPainter((doc) => new ClassApplierPainter(doc)),
});
