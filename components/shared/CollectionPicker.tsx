// Collection picker: a combobox with the full path of every collection, recently used first,
// type-to-filter, and "Create …" for a new one (also "Parent / New" for a nested one).
import { useMemo, useRef, useState } from 'preact/hooks';
import type { CollectionOption } from '../../lib/model.js';
import { t } from '../../lib/i18n.js';
import './editors.css';
import { filterCollections, pathText } from './collection-filter.js';

interface Props {
  items: CollectionOption[];
  recent: number[];
  value: number;
  onChange: (id: number) => void;
  onCreate: (title: string, parentId: number | null) => Promise<CollectionOption>;
  disabled?: boolean;
}

type Row = { kind: 'pick'; c: CollectionOption; section: 'recent' | 'all' } | { kind: 'create'; title: string; parentId: number | null; label: string };

export function CollectionPicker({ items, recent, value, onChange, onCreate, disabled }: Props) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [error, setError] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const current = items.find((c) => c.id === value);

  const rows = useMemo<Row[]>(() => {
    const list = filterCollections(items, recent, query);
    const out: Row[] = [
      ...list.recent.map((c) => ({ kind: 'pick' as const, c, section: 'recent' as const })),
      ...list.all.map((c) => ({ kind: 'pick' as const, c, section: 'all' as const })),
    ];
    if (list.create) {
      const label = list.create.parentPath ? `${list.create.parentPath} / ${list.create.title}` : list.create.title;
      out.push({ kind: 'create', title: list.create.title, parentId: list.create.parentId, label });
    }
    return out;
  }, [items, recent, query]);

  const close = () => {
    setOpen(false);
    setQuery('');
    setActive(0);
  };

  const choose = async (row: Row) => {
    setError('');
    if (row.kind === 'pick') {
      onChange(row.c.id);
      close();
      return;
    }
    try {
      const created = await onCreate(row.title, row.parentId);
      onChange(created.id);
      close();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(a + 1, rows.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === 'Enter' && open && rows[active]) {
      e.preventDefault();
      void choose(rows[active]);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      e.stopPropagation();
      close();
    }
  };

  const optionId = (i: number) => `collection-option-${i}`;
  return (
    <div class="field picker">
      <label for="collection-input">{t('fieldCollection')}</label>
      <input
        id="collection-input"
        ref={input}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls="collection-list"
        aria-activedescendant={open && rows[active] ? optionId(active) : undefined}
        autocomplete="off"
        disabled={disabled}
        placeholder={t('collectionPlaceholder')}
        value={open ? query : current ? pathText(current) : ''}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onInput={(e) => {
          setQuery((e.target as HTMLInputElement).value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(close, 150)}
      />
      {open && (
        <ul id="collection-list" role="listbox" aria-label={t('fieldCollection')} class="listbox">
          {rows.map((row, i) => (
            <li
              key={row.kind === 'pick' ? `${row.section}-${row.c.id}` : 'create'}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              class={i === active ? 'active' : ''}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => void choose(row)}
            >
              {row.kind === 'pick' ? (
                <>
                  {row.section === 'recent' && <span class="hint">{t('collectionRecent')} </span>}
                  {pathText(row.c)}
                </>
              ) : (
                t('collectionCreate', row.label)
              )}
            </li>
          ))}
          {rows.length === 0 && <li class="empty">{t('collectionNone')}</li>}
        </ul>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </div>
  );
}
