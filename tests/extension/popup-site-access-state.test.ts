// @vitest-environment jsdom
// The site-access state the popup's first frame shows when the answer asked early is not there yet
// (lib/popup/site-access-state.ts): what the last popup learned, kept in localStorage; granting site
// access anywhere in the extension keeps the new state, taking it back forgets it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { forgetSiteAccess, rememberedSiteAccess, rememberSiteAccess, rememberSiteAccessNow } from '../../lib/popup/site-access-state.js';
import { askSiteAccess, removeSiteAccess } from '../../components/shared/site-access.js';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('remembered site-access state', () => {
  it('is nothing at first, then what was kept, until forgotten', () => {
    expect(rememberedSiteAccess()).toBeNull();
    rememberSiteAccess({ granted: false, ask: true });
    expect(rememberedSiteAccess()).toEqual({ granted: false, ask: true });
    forgetSiteAccess();
    expect(rememberedSiteAccess()).toBeNull();
  });

  it('anything else stored under its name is not taken for a state', () => {
    localStorage.setItem('tidemark.popupSiteAccess', '{"granted":true}');
    expect(rememberedSiteAccess()).toBeNull();
    localStorage.setItem('tidemark.popupSiteAccess', 'not json');
    expect(rememberedSiteAccess()).toBeNull();
  });

  it('granted through the extension: kept as granted; refused: left as it was; taken back: forgotten', async () => {
    rememberSiteAccess({ granted: false, ask: true });
    const request = vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(false);
    expect(await askSiteAccess()).toBe(false);
    await Promise.resolve();
    expect(rememberedSiteAccess()).toEqual({ granted: false, ask: true });
    request.mockResolvedValue(true);
    expect(await askSiteAccess()).toBe(true);
    await Promise.resolve();
    expect(rememberedSiteAccess()).toEqual({ granted: true, ask: false });
    vi.spyOn(fakeBrowser.permissions, 'remove').mockResolvedValue(true);
    await removeSiteAccess();
    expect(rememberedSiteAccess()).toBeNull();
  });

  it('kept from another page (the options page, where a new install signs in) as the browser says it is now', async () => {
    vi.spyOn(fakeBrowser.permissions, 'contains').mockResolvedValue(false);
    rememberSiteAccessNow();
    await vi.waitFor(() => expect(rememberedSiteAccess()).toEqual({ granted: false, ask: true }));
    vi.spyOn(fakeBrowser.permissions, 'contains').mockResolvedValue(true);
    rememberSiteAccessNow();
    await vi.waitFor(() => expect(rememberedSiteAccess()).toEqual({ granted: true, ask: false }));
  });
});
