import { render } from 'preact';
import { t } from '../../lib/i18n.js';
import { SidePanelApp } from '../../components/sidepanel/SidePanelApp.js';
import '../../components/shared/base.css';
import '../../components/sidepanel/sidepanel.css';

document.title = t('panelTitle');
render(<SidePanelApp />, document.getElementById('app')!);
