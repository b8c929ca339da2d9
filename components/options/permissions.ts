// Host access for the chosen server. The manifest grants the default server's host (localhost);
// any other origin is an optional permission the browser asks the user for.
import { browser } from 'wxt/browser';

/** Hosts the manifest grants at install: match patterns without a port. */
const BUILT_IN_HOSTS = ['localhost'];

export function originPattern(serverUrl: string): string {
  const u = new URL(serverUrl);
  return `${u.protocol}//${u.hostname}/*`;
}

/** True when the server's host is not covered by the manifest and must be asked for. */
export function needsHostPermission(serverUrl: string): boolean {
  try {
    const u = new URL(serverUrl);
    return !BUILT_IN_HOSTS.includes(u.hostname);
  } catch {
    return false;
  }
}

/**
 * Asks for access to the server's origin. Must be called straight from a click handler (browsers
 * only show the prompt during a user gesture), before any other await.
 */
export function requestHostPermission(serverUrl: string): Promise<boolean> {
  return browser.permissions.request({ origins: [originPattern(serverUrl)] });
}

export const TABS_PERMISSION = { permissions: ['tabs'] as ('tabs')[] };
