// Serialises the page in a tab as the user sees it: the DOM after its scripts ran (and behind their
// login), which the server's own fetch of the address may never see.

/** What serialisePage answers: the page's HTML, its address, and where it was cut (0: whole). */
export interface SerialisedPage {
  html: string;
  url: string;
  cutAt: number;
}

/**
 * Runs INSIDE the page (scripting.executeScript serialises this function): it must not use anything
 * from outside its own body. Open shadow roots are left out: the highlighter's own toolbar is one,
 * and telling it from the page's would cost a walk of every element.
 */
export function serialisePage(maxBytes: number): SerialisedPage {
  const html = `<!DOCTYPE html>${document.documentElement.outerHTML}`;
  const url = location.href;
  // At most 3 UTF-8 bytes per UTF-16 unit: most pages need no encoding to know they fit.
  if (html.length * 3 <= maxBytes) return { html, url, cutAt: 0 };
  const bytes = new TextEncoder().encode(html);
  if (bytes.length <= maxBytes) return { html, url, cutAt: 0 };
  // A character cut in two decodes as U+FFFD at the end: dropped.
  return { html: new TextDecoder().decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, ''), url, cutAt: maxBytes };
}
