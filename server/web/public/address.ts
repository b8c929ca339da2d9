// Addresses of public collection pages: /c/<id>-<slug>. The id finds the collection (the API reads a
// public collection by id anyway: the spec makes it "reachable without authentication"); the slug,
// from the title, is only for people reading the link, and any other slug leads to the current one.

const SLUG_MAX = 60;

/** The title as a link-friendly word list: "Reading list: 2024!" -> "reading-list-2024". */
function slugOf(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
}

/** The page's path: /c/12-reading-list, or /c/12 for a title without letters or digits. */
export function publicPath(collection: { id: number; title: string }): string {
  const slug = slugOf(collection.title);
  return slug ? `/c/${collection.id}-${slug}` : `/c/${collection.id}`;
}

/** The Atom feed of a public collection; the same whatever the title, so subscriptions survive a rename. */
export function feedPath(id: number): string {
  return `/c/${id}/feed.atom`;
}

/** The collection id a /c/ path segment names (`12` or `12-any-slug`), or null. */
export function idOfRef(ref: string): number | null {
  const match = /^([1-9]\d{0,14})(?:-[a-z0-9-]*)?$/.exec(ref);
  if (!match) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : null;
}

/** `publicUrl` of a collection's API item: its page's absolute address while it is public. */
export function publicUrlOf(origin: string, row: { id: number; title: string; public: number | boolean }): string | undefined {
  return row.public ? origin + publicPath(row) : undefined;
}
