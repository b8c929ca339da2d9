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
  const bytes = new TextEncoder().encode(`<!DOCTYPE html>${document.documentElement.outerHTML}`);
  // Cut at a byte count: a character cut in two decodes as U+FFFD at the end, dropped.
  const html = new TextDecoder().decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, '');
  return { html, url: location.href, cutAt: bytes.length > maxBytes ? maxBytes : 0 };
}
