// One highlight in the side panel: its colour (click to change), its text (click to scroll the page
// to it and flash it), its note (saved by itself), Copy and Delete.
import { useState } from 'preact/hooks';
import { HIGHLIGHT_COLORS, type HighlightColor } from '../../lib/api/constants.js';
import { t } from '../../lib/i18n.js';
import type { HighlightListItem } from '../../lib/messaging/protocol.js';
import { COLOR_VALUES } from '../../lib/painting/styles.js';
import { AutosavedText } from '../shared/AutosavedText.js';

export interface ItemActions {
  show(key: string): void;
  recolor(key: string, color: HighlightColor): void;
  /** `tabId`: the tab the item was shown for (a note still being saved after a tab switch goes to its own page). */
  saveNote(tabId: number, key: string, note: string): Promise<unknown>;
  copy(item: HighlightListItem): void;
  remove(item: HighlightListItem): void;
}

export function HighlightItem({ tabId, item, found, focus, actions }: { tabId: number; item: HighlightListItem; found: boolean; focus: boolean; actions: ItemActions }) {
  const [picking, setPicking] = useState(false);
  const colorName = t(`color_${item.color}`);
  return (
    <li class="hl-item" data-color={item.color}>
      <button
        type="button"
        class="hl-swatch"
        style={{ background: COLOR_VALUES[item.color] }}
        aria-label={t('panelChangeColor', colorName)}
        title={t('panelChangeColor', colorName)}
        aria-expanded={picking}
        onClick={() => setPicking(!picking)}
      />
      <div class="hl-body">
        {found ? (
          <button type="button" class="hl-text" title={t('popupHighlightShow')} onClick={() => actions.show(item.key)}>
            {item.text}
          </button>
        ) : (
          <p class="hl-text">{item.text}</p>
        )}
        {picking && (
          <div class="hl-colors" role="group" aria-label={t('panelColors')}>
            {HIGHLIGHT_COLORS.map((c) => (
              <button
                type="button"
                key={c}
                class="swatch"
                style={{ background: COLOR_VALUES[c] }}
                aria-label={t(`color_${c}`)}
                aria-pressed={c === item.color}
                onClick={() => {
                  setPicking(false);
                  if (c !== item.color) actions.recolor(item.key, c);
                }}
              />
            ))}
          </div>
        )}
        <AutosavedText
          id={`hl-note-${item.key}`}
          label={t('popupHighlightNote')}
          value={item.note}
          rows={1}
          maxRows={12}
          placeholder={t('panelNotePlaceholder')}
          focus={focus}
          save={(note) => actions.saveNote(tabId, item.key, note)}
        />
        <div class="hl-actions">
          <button type="button" class="link" onClick={() => actions.copy(item)}>
            {t('highlightCopy')}
          </button>
          <button type="button" class="link danger" onClick={() => actions.remove(item)}>
            {t('highlightDelete')}
          </button>
        </div>
      </div>
    </li>
  );
}
