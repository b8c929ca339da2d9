// How much taller than their 3 rows the popup's note and excerpt boxes were on a page (they grow with a long
// note, components/shared/GrowingTextarea.tsx), remembered per page in the popup's localStorage, which is read
// synchronously: the room the popup holds while it finds the bookmark (.pending-space) is the form's next time,
// so a long note's box is there from the form's first frame without pushing the Highlights section down after the
// popup is shown. Kept under a hash of the page's address (not the address), for the MAX_PAGES pages whose room
// changed last; a page whose boxes fit their 3 rows again is forgotten. A note made shorter elsewhere since makes
// the form come shorter than the room (as a longer one makes it come taller).
const KEY = 'tidemark.popupFormRoom';
const MAX_PAGES = 200;

/** A short hash of `url` (FNV-1a, 32 bits): two pages that share one would only share a room. */
function pageKey(url: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < url.length; i++) h = Math.imul(h ^ url.charCodeAt(i), 0x01000193);
  // Not a number-like key, which an object would list first whatever its age.
  return `p${(h >>> 0).toString(36)}`;
}

/** What is kept; nothing when what is stored under its name is not JSON (it is then written anew). Throws when storage does. */
function read(): Record<string, number> {
  const stored = localStorage.getItem(KEY);
  let value: unknown = null;
  try {
    value = JSON.parse(stored ?? '{}');
  } catch {
    // Not JSON: nothing kept.
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, number>) : {};
}

/** The extra height (px) the form had on `url` when it was last shown here; 0 when none is known. */
export function rememberedFormRoom(url: string): number {
  try {
    const px = read()[pageKey(url)];
    return typeof px === 'number' && px > 0 && px < 2000 ? px : 0;
  } catch {
    // Storage disabled: the popup holds the room of 3-row boxes, as with nothing kept.
    return 0;
  }
}

/** Keeps `px` (the boxes' height beyond their 3 rows) for `url`; 0 forgets the page. */
export function rememberFormRoom(url: string, px: number): void {
  try {
    const rooms = read();
    const key = pageKey(url);
    if ((rooms[key] ?? 0) === px) return;
    // Re-added last: the oldest pages are the first keys.
    delete rooms[key];
    if (px > 0) rooms[key] = px;
    const keys = Object.keys(rooms);
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) delete rooms[old];
    localStorage.setItem(KEY, JSON.stringify(rooms));
  } catch (err) {
    // The popup still works without it: on this page it grows when the bookmark comes.
    console.warn(`Tidemark could not keep the popup's room for this page's note: ${(err as Error).message}`);
  }
}
