// The toolbar popup's app (entrypoints/popup/index.html): built as one classic script with its style
// sheet (assets/popup-app.css), not as the page's module graph of shared chunks: the popup, opened
// more than anything else, loads and compiles one file. The first requests left earlier, from the
// script in the page's <head> (entrypoints/popup-first-requests/index.ts).
import '../../components/shared/base.css';
import { render } from 'preact';
import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { t } from '../../lib/i18n.js';
import { PopupApp, startPopup } from '../../components/popup/PopupApp.js';
import '../../components/popup/popup.css';

export default defineUnlistedScript(() => {
  document.title = t('actionTitle');
  startPopup();
  render(<PopupApp />, document.getElementById('app')!);
});
