// "Open library" from the popup and the options page: the library page in a tab (an open one is reused).
import { browser } from 'wxt/browser';

export async function openLibrary(): Promise<void> {
  const page = browser.runtime.getURL('/library.html');
  const [open] = await browser.tabs.query({ url: `${page}*` }).catch(() => []);
  if (open?.id !== undefined) await browser.tabs.update(open.id, { active: true });
  else await browser.tabs.create({ url: page });
}
