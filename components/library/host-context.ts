// The library's host (lib/library/host.ts) for every component of the page: the extension's entry
// point provides the background's, the web app the API's.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { LibraryHost } from '../../lib/library/host.js';

export const HostContext = createContext<LibraryHost | null>(null);

export function useHost(): LibraryHost {
  const host = useContext(HostContext);
  if (!host) throw new Error('The library was rendered without a host (wrap it in <HostContext.Provider>).');
  return host;
}
