import { render } from 'preact';
import { HostContext } from '../../components/library/host-context.js';
import { SavedCopyPage } from '../../components/library/SavedCopyPage.js';
import { extensionHost } from '../../lib/library/extension-host.js';
import '../../components/shared/base.css';
import '../../components/library/saved-copy.css';

render(
  <HostContext.Provider value={extensionHost}>
    <SavedCopyPage />
  </HostContext.Provider>,
  document.getElementById('app')!,
);
