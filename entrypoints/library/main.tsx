import { render } from 'preact';
import { HostContext } from '../../components/library/host-context.js';
import { LibraryApp } from '../../components/library/LibraryApp.js';
import { extensionHost } from '../../lib/library/extension-host.js';
import '../../components/shared/base.css';
import '../../components/shared/editors.css';
import '../../components/library/library.css';

render(
  <HostContext.Provider value={extensionHost}>
    <LibraryApp />
  </HostContext.Provider>,
  document.getElementById('app')!,
);
