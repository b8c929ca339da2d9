// The library's one search box: the full search language, with `#tag` completing from the user's
// tags and collection names offered as a place to go. Typing is debounced by the caller.
import type { Ref } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Tag } from '../../lib/api/types.js';
import { t } from '../../lib/i18n.js';
import type { LibraryCollection } from '../../lib/library/types.js';

interface Props {
  /** The search the list shows (from the address); typing changes it after `debounceMs` of quiet. */
  value: string;
  debounceMs: number;
  tags: Tag[];
  collections: LibraryCollection[];
  inputRef: Ref<HTMLInputElement>;
  onSearch: (text: string) => void;
  onCollection: (id: number) => void;
}

type Suggestion = { kind: 'tag'; name: string; count: number } | { kind: 'collection'; id: number; title: string };

/** The word being typed at the end of the text (where completion applies). */
function lastWord(text: string): string {
  const m = /(?:^|\s)(-?#"[^"]*|-?\S*)$/.exec(text);
  return m?.[1] ?? '';
}

export function SearchBox({ value: committed, debounceMs, tags, collections, inputRef, onSearch, onCollection }: Props) {
  const [value, setValue] = useState(committed);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const word = lastWord(value);
  // What this box last sent: the search coming back as `committed` must not overwrite what was typed since.
  const sent = useRef(committed);
  // The pending search of the last keystroke (see onInput).
  const pause = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Back/forward, "Clear the search" and links change the search from outside.
  useEffect(() => {
    if (committed !== sent.current) {
      clearTimeout(pause.current);
      sent.current = committed;
      setValue(committed);
    }
  }, [committed]);
  // Typing re-renders only this box; the list follows after a pause. The pause is counted from the
  // keystroke itself, not from an effect after the box's next paint (which added a frame and the
  // render to every search's wait).
  useEffect(() => () => clearTimeout(pause.current), []);
  const onInput = (text: string) => {
    setValue(text);
    clearTimeout(pause.current);
    pause.current = setTimeout(() => {
      if (text === sent.current) return;
      sent.current = text;
      onSearch(text);
    }, debounceMs);
  };

  const suggestions = useMemo<Suggestion[]>(() => {
    const out: Suggestion[] = [];
    const bare = word.replace(/^-/, '');
    if (bare.startsWith('#')) {
      const q = bare.slice(1).replace(/^"/, '').toLowerCase();
      for (const tag of tags) if (tag._id.toLowerCase().startsWith(q)) out.push({ kind: 'tag', name: tag._id, count: tag.count });
      return out.sort((a, b) => (b.kind === 'tag' && a.kind === 'tag' ? b.count - a.count : 0)).slice(0, 8);
    }
    if (bare.length >= 2 && !bare.includes(':')) {
      const q = bare.toLowerCase();
      for (const c of collections) if (c.title.toLowerCase().includes(q)) out.push({ kind: 'collection', id: c.id, title: c.title });
    }
    return out.slice(0, 5);
  }, [word, tags, collections]);

  const apply = (s: Suggestion) => {
    setOpen(false);
    setActive(-1);
    if (s.kind === 'collection') {
      onInput(value.slice(0, value.length - word.length).trimEnd());
      onCollection(s.id);
      return;
    }
    const neg = word.startsWith('-') ? '-' : '';
    const tag = /\s/.test(s.name) ? `#"${s.name}"` : `#${s.name}`;
    onInput(`${value.slice(0, value.length - word.length)}${neg}${tag} `);
  };

  const showList = open && suggestions.length > 0;
  return (
    <div class="search" role="search">
      <input
        ref={inputRef}
        type="search"
        role="combobox"
        aria-label={t('libSearch')}
        aria-expanded={showList}
        aria-controls="search-suggestions"
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? `sugg-${active}` : undefined}
        placeholder={t('libSearchPlaceholder')}
        value={value}
        onInput={(e) => {
          setOpen(true);
          setActive(-1);
          onInput((e.target as HTMLInputElement).value);
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          // Chromium empties a search field on Escape without an input event, which left the box
          // empty over the list of the old search. Escape here closes the suggestions, then (the
          // page's keys) leaves the box; the text stays what the list shows.
          if (e.key === 'Escape') e.preventDefault();
          if (!showList) return;
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            e.stopPropagation();
            setActive((a) => Math.min(a + 1, suggestions.length - 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            e.stopPropagation();
            setActive((a) => Math.max(a - 1, -1));
          } else if ((e.key === 'Enter' || e.key === 'Tab') && active >= 0) {
            e.preventDefault();
            apply(suggestions[active]!);
          } else if (e.key === 'Escape') {
            setOpen(false);
          }
        }}
      />
      {showList && (
        <ul id="search-suggestions" role="listbox" class="suggestions">
          {suggestions.map((s, i) => (
            <li
              key={i}
              id={`sugg-${i}`}
              role="option"
              aria-selected={i === active}
              class={i === active ? 'active' : ''}
              onMouseDown={(e) => {
                e.preventDefault();
                apply(s);
              }}
            >
              {s.kind === 'tag' ? (
                <>
                  <span>#{s.name}</span>
                  <span class="hint">{s.count}</span>
                </>
              ) : (
                <>
                  <span>{t('libGoToCollection', s.title)}</span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <p class="hint search-help">{t('libSearchHelp')}</p>
    </div>
  );
}
