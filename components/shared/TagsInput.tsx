// Tags: removable chips (Backspace in the empty field removes the last; Delete or Backspace on a
// chip removes it), autocomplete from the user's tags with their counts, and suggested tags.
import { useMemo, useRef, useState } from 'preact/hooks';
import type { Tag } from '../../lib/api/types.js';
import { t } from '../../lib/i18n.js';
import './editors.css';

interface Props {
  value: string[];
  known: Tag[];
  suggested: string[];
  onChange: (tags: string[]) => void;
  disabled?: boolean;
  /** Replaces "Tags" (e.g. "Tags to add" when the stored tags are not known). */
  label?: string;
}

export function TagsInput({ value, known, suggested, onChange, disabled, label = t('fieldTags') }: Props) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const chips = useRef<(HTMLButtonElement | null)[]>([]);

  const matches = useMemo(() => {
    const q = text.trim().toLowerCase();
    if (!q) return [];
    const taken = new Set(value.map((v) => v.toLowerCase()));
    return known
      .filter((k) => k._id.toLowerCase().includes(q) && !taken.has(k._id.toLowerCase()))
      .sort((a, b) => Number(b._id.toLowerCase().startsWith(q)) - Number(a._id.toLowerCase().startsWith(q)) || b.count - a.count)
      .slice(0, 8);
  }, [text, known, value]);

  const add = (tag: string) => {
    const clean = tag.trim().replace(/\s+/g, ' ');
    setText('');
    setActive(-1);
    if (!clean || clean.length > 200 || value.some((v) => v.toLowerCase() === clean.toLowerCase())) return;
    onChange([...value, clean]);
  };

  const removeAt = (i: number) => {
    onChange(value.filter((_, j) => j !== i));
    // Keep the keyboard where it was: on the previous chip, or back in the field.
    setTimeout(() => (chips.current[Math.max(0, i - 1)] ?? input.current)?.focus(), 0);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ',') {
      if (!text.trim() && e.key === 'Enter') return;
      e.preventDefault();
      add(active >= 0 && matches[active] ? matches[active]._id : text);
    } else if (e.key === 'Backspace' && text === '' && value.length) {
      e.preventDefault();
      onChange(value.slice(0, -1));
    } else if (e.key === 'ArrowDown' && matches.length) {
      e.preventDefault();
      setActive((a) => Math.min(a + 1, matches.length - 1));
    } else if (e.key === 'ArrowUp' && matches.length) {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, -1));
    } else if (e.key === 'Escape' && text) {
      e.preventDefault();
      e.stopPropagation();
      setText('');
    }
  };

  const fresh = suggested.filter((s) => !value.some((v) => v.toLowerCase() === s.toLowerCase())).slice(0, 6);
  return (
    <div class="field tags">
      <label for="tags-input">{label}</label>
      <div class="combo">
        <div class="chips">
          {value.map((tag, i) => (
            <span class="chip" key={tag}>
              {tag}
              <button
                type="button"
                ref={(el) => {
                  chips.current[i] = el;
                }}
                aria-label={t('tagRemove', tag)}
                disabled={disabled}
                onClick={() => removeAt(i)}
                onKeyDown={(e) => {
                  if (e.key === 'Delete' || e.key === 'Backspace') {
                    e.preventDefault();
                    removeAt(i);
                  }
                }}
              >
                ×
              </button>
            </span>
          ))}
          <input
            id="tags-input"
            ref={input}
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={matches.length > 0}
            aria-controls="tags-list"
            aria-activedescendant={active >= 0 ? `tag-option-${active}` : undefined}
            autocomplete="off"
            disabled={disabled}
            placeholder={value.length ? '' : t('tagsPlaceholder')}
            value={text}
            onInput={(e) => {
              setText((e.target as HTMLInputElement).value);
              setActive(-1);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => text.trim() && add(text)}
          />
        </div>
        {matches.length > 0 && (
          <ul id="tags-list" role="listbox" aria-label={label} class="listbox">
            {matches.map((m, i) => (
              <li
                key={m._id}
                id={`tag-option-${i}`}
                role="option"
                aria-selected={i === active}
                class={i === active ? 'active' : ''}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => add(m._id)}
              >
                {m._id} <span class="hint">({m.count})</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      {fresh.length > 0 && (
        <div class="suggested">
          <span class="hint">{t('tagsSuggested')}</span>
          {fresh.map((s) => (
            <button type="button" class="link" key={s} disabled={disabled} aria-label={t('tagAddSuggested', s)} onClick={() => add(s)}>
              +{s}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
