// The address bar keyword `tm`: typing searches the library through the same listing the library
// page uses; Enter on a suggestion opens that page, Enter on the text opens the library with it.
import type { Bookmark } from '../api/types.js';
import { libraryUrl } from '../library/url-state.js';

export interface OmniboxSuggestion {
  content: string;
  description: string;
}

export type OmniboxDisposition = 'currentTab' | 'newForegroundTab' | 'newBackgroundTab';

interface OmniboxDeps {
  /** The first bookmarks matching `search` (the library's own listing of collection 0). */
  search: (search: string) => Promise<Bookmark[]>;
  /** Opens `url` (a bookmark or the library page) as the disposition asks. */
  open: (url: string, disposition: OmniboxDisposition) => Promise<void>;
  /** The library page's address, e.g. chrome-extension://<id>/library.html. */
  libraryPage: () => string;
  /** Chrome reads the description as XML with <match>/<dim>/<url> markup; Firefox takes plain text. */
  markup: boolean;
}

/** Text made safe for the omnibox description (XML): &, <, >, quotes escaped. */
function escapeOmnibox(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

const MAX_SUGGESTIONS = 6;

export function createOmnibox(deps: OmniboxDeps) {
  let latest = 0;

  /** Suggestions for what was typed: title and domain of each match. Stale answers are dropped. */
  async function suggestionsFor(text: string): Promise<OmniboxSuggestion[] | null> {
    const query = text.trim();
    const mine = ++latest;
    if (!query) return [];
    let items: Bookmark[];
    try {
      items = await deps.search(query);
    } catch {
      // Signed out or offline: no suggestions; Enter still opens the library with the search.
      return mine === latest ? [] : null;
    }
    if (mine !== latest) return null;
    return items.slice(0, MAX_SUGGESTIONS).map((b) => {
      const title = b.title || b.link;
      const description = deps.markup
        ? `${escapeOmnibox(title)} <dim>— ${escapeOmnibox(b.domain)}</dim>`
        : `${title} — ${b.domain}`;
      return { content: b.link, description };
    });
  }

  /** omnibox.onInputChanged */
  async function onInputChanged(text: string, suggest: (s: OmniboxSuggestion[]) => void): Promise<void> {
    const list = await suggestionsFor(text);
    if (list) suggest(list);
  }

  /** omnibox.onInputEntered: a suggestion's content is its link; anything else is a search for the library. */
  async function onInputEntered(text: string, disposition: OmniboxDisposition): Promise<string> {
    const trimmed = text.trim();
    const url = /^https?:\/\//i.test(trimmed) ? trimmed : libraryUrl(deps.libraryPage(), { search: trimmed });
    await deps.open(url, disposition);
    return url;
  }

  return { onInputChanged, onInputEntered, suggestionsFor };
}
