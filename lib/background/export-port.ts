// The library page's exports: the page connects a port named EXPORT_PORT and sends what to export;
// the background streams the server's file back in pieces (LibraryService.exportStream). Only the
// extension's own pages may connect; the request is checked against its schema like any message.
import { browser, type Browser } from 'wxt/browser';
import { check } from '../messaging/check.js';
import { classifySender, type ExtensionIdentity } from '../messaging/router.js';
import { ExportRequest } from '../messaging/schemas.js';
import { EXPORT_PORT, type ExportPortMessage } from '../library/export-transfer.js';
import type { LibraryService } from './library.js';

/** Registers the port listener; call synchronously while the background starts. */
export function listenForExports(library: LibraryService, self: () => ExtensionIdentity): void {
  browser.runtime.onConnect.addListener((port: Browser.runtime.Port) => {
    if (port.name !== EXPORT_PORT) return;
    if (!port.sender || classifySender(port.sender, self()) !== 'page') {
      port.disconnect();
      return;
    }
    const stop = new AbortController();
    let gone = false;
    port.onDisconnect.addListener(() => {
      gone = true;
      stop.abort();
    });
    const post = (m: ExportPortMessage) => {
      if (!gone) port.postMessage(m);
    };
    port.onMessage.addListener((request: unknown) => {
      const problem = check(ExportRequest, request, 'export');
      if (problem) {
        console.warn(`Tidemark: an export request was refused: ${problem}`);
        post({ kind: 'error', message: `The export request was not understood (${problem}). Reload the library page.` });
        return;
      }
      void library.exportStream(request as ExportRequest, post, stop.signal);
    });
  });
}
