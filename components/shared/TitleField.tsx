// The bookmark's title: a text field that says when a title was cut to fit (a page's title longer
// than Tidemark keeps, or typing past the server's limit), instead of cutting it silently.
import { t } from '../../lib/i18n.js';

/** The server's limit for a bookmark title (lib/api's BookmarkUpdate schema). */
const TITLE_MAX = 10_000;

interface Props {
  value: string;
  onInput: (title: string) => void;
  disabled?: boolean;
  /** The page's title was cut at this many characters when the page was saved. */
  cutAt?: number;
  id?: string;
}

export function TitleField({ value, onInput, disabled, cutAt, id = 'title-input' }: Props) {
  const atLimit = value.length >= TITLE_MAX;
  const hintId = `${id}-cut`;
  const cut = atLimit ? t('titleAtLimit', TITLE_MAX.toLocaleString('en')) : cutAt ? t('titleCut', cutAt) : '';
  return (
    <div class="field">
      <label for={id}>{t('fieldTitle')}</label>
      <input
        id={id}
        value={value}
        maxLength={TITLE_MAX}
        disabled={disabled}
        aria-describedby={cut ? hintId : undefined}
        onInput={(e) => onInput((e.target as HTMLInputElement).value)}
      />
      {cut && (
        <p id={hintId} class="hint warn">
          {cut}
        </p>
      )}
    </div>
  );
}
