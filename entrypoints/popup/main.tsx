import { render } from 'preact';
import { t } from '../../lib/i18n.js';
import { PopupApp, startPopup } from '../../components/popup/PopupApp.js';
import '../../components/shared/base.css';
import '../../components/popup/popup.css';

document.title = t('actionTitle');
startPopup();
render(<PopupApp />, document.getElementById('app')!);
