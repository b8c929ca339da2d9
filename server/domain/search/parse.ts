import type { DateField, FlagName, SearchQuery, Term } from './ast.js';

/**
 * Parses a `search` expression (observed-behaviour.md, "Search expression") into a SearchQuery.
 *
 * Never throws: whatever cannot be read as an operator degrades to plain words — an unbalanced
 * quote is dropped and the rest read as usual, `created:someday` is the words "created" and
 * "someday", a lone `-` or `#` is ignored. Words without any letter or digit are dropped (the
 * full-text index could never match them). Also accepts the older JSON form
 * `[{"key":"tag","val":"x"}, ...]`.
 */
export function parseSearch(input: string | null | undefined): SearchQuery {
  const text = clean(input ?? '');
  const legacy = parseLegacyJson(text);
  if (legacy) return legacy;
  const query: SearchQuery = { match: 'AND', terms: [] };
  readTerms(text, query);
  query.terms = query.terms.slice(0, MAX_TERMS);
  return query;
}

/** More terms than this are ignored: it bounds the SQL one request can build. */
export const MAX_TERMS = 64;

const FLAGS: Record<string, FlagName> = {
  important: 'important',
  notag: 'notag',
  note: 'note',
  highlights: 'highlights',
  file: 'file',
  broken: 'broken',
  duplicate: 'duplicate',
};
const DATE_KEYS: Record<string, DateField> = { created: 'created', lastupdate: 'lastUpdate' };
const FIELD_KEYS = new Set(['link', 'title', 'excerpt', 'note']);
const KEYS = new Set([
  ...Object.keys(FLAGS), ...Object.keys(DATE_KEYS), ...FIELD_KEYS,
  'type', 'domain', '_id', 'lang', 'match', 'tag',
]);

/** Letters, digits and private-use characters: what the unicode61 tokenizer keeps in a word. */
const INDEXABLE = /[\p{L}\p{N}\p{Co}]/u;
export const hasIndexableText = (s: string) => INDEXABLE.test(s);

const isSpace = (c: string | undefined) => c !== undefined && /\s/u.test(c);

/** Well-formed UTF-16, control characters as spaces, typographic double quotes as plain ones. */
function clean(input: string): string {
  let s = typeof input === 'string' ? input : String(input);
  s = s.toWellFormed ? s.toWellFormed() : s.replace(/[\uD800-\uDFFF]/g, '\uFFFD');
  return s.normalize('NFC').replace(/\p{Cc}/gu, ' ').replace(/[\u201C\u201D\u201E\u00AB\u00BB]/g, '"');
}

/** Reads `"...": the text up to the closing quote, or null when the quote is never closed. */
function readQuoted(s: string, at: number): { value: string; end: number } | null {
  const close = s.indexOf('"', at + 1);
  if (close < 0) return null;
  return { value: s.slice(at + 1, close), end: close + 1 };
}

/** Reads up to the next whitespace. */
function readRun(s: string, at: number): { value: string; end: number } {
  let end = at;
  while (end < s.length && !isSpace(s[end])) end++;
  return { value: s.slice(at, end), end };
}

function readTerms(s: string, query: SearchQuery): void {
  let i = 0;
  const n = s.length;
  const push = (t: Term | null) => {
    if (t) query.terms.push(t);
  };
  const pushWord = (value: string, negate: boolean) => {
    if (hasIndexableText(value)) push({ kind: 'word', value, negate });
  };
  const pushWords = (text: string, negate: boolean) => {
    for (const w of text.split(/\s+/u)) pushWord(w, negate);
  };

  while (i < n) {
    while (i < n && isSpace(s[i])) i++;
    if (i >= n) break;
    let negate = false;
    if (s[i] === '-' && i + 1 < n && !isSpace(s[i + 1])) {
      negate = true;
      i++;
    }
    const c = s[i];

    if (c === '"') {
      const q = readQuoted(s, i);
      if (!q) {
        // Unbalanced quote: forget it and read what follows as ordinary terms.
        i++;
        continue;
      }
      if (hasIndexableText(q.value)) push({ kind: 'phrase', value: q.value.trim(), negate });
      i = q.end;
      continue;
    }

    if (c === '#') {
      if (s[i + 1] === '"') {
        const q = readQuoted(s, i + 1);
        if (!q) {
          i += 2;
          continue;
        }
        const tag = q.value.trim();
        if (tag) push({ kind: 'tag', value: tag, negate });
        i = q.end;
        continue;
      }
      const run = readRun(s, i + 1);
      if (run.value) push({ kind: 'tag', value: run.value, negate });
      i = run.end;
      continue;
    }

    const key = /^([A-Za-z_]+):/.exec(s.slice(i, i + 20));
    if (key && KEYS.has(key[1].toLowerCase())) {
      const name = key[1].toLowerCase();
      const at = i + key[0].length;
      let value: string;
      let end: number;
      if (s[at] === '"') {
        const q = readQuoted(s, at);
        if (!q) {
          // `title:"unclosed words`: the key becomes a word, the rest is read as usual.
          pushWord(key[1], negate);
          i = at + 1;
          continue;
        }
        value = q.value.trim();
        end = q.end;
      } else {
        const run = readRun(s, at);
        value = run.value;
        end = run.end;
      }
      i = end;
      if (value === '') continue; // `type:` with nothing after it filters nothing
      if (name === 'match') {
        const v = value.toUpperCase();
        if (v === 'OR' || v === 'AND') query.match = v;
        else pushWords(`${key[1]} ${value}`, negate);
        continue;
      }
      const term = keyTerm(name, value, negate);
      if (term) push(term);
      else pushWords(`${key[1]} ${value}`, negate); // not a valid value: plain words
      continue;
    }

    const run = readRun(s, i);
    i = run.end;
    if (/^\u2764\uFE0F?$/u.test(run.value)) {
      push({ kind: 'flag', flag: 'important', value: true, negate });
      continue;
    }
    pushWord(run.value, negate);
  }
}

/** The term for `name:value`, or null when the value does not fit the key. */
function keyTerm(name: string, value: string, negate: boolean): Term | null {
  const lower = value.toLowerCase();
  if (name === 'note' || name in FLAGS) {
    if (lower === 'true' || lower === 'false') {
      return { kind: 'flag', flag: FLAGS[name], value: lower === 'true', negate };
    }
    if (name !== 'note') return null;
  }
  if (FIELD_KEYS.has(name)) {
    return hasIndexableText(value) ? { kind: 'field', field: name as 'link', value, negate } : null;
  }
  if (name in DATE_KEYS) return dateTerm(DATE_KEYS[name], value, negate);
  switch (name) {
    case 'tag':
      return { kind: 'tag', value, negate };
    case 'type':
      return /^[a-z]{1,20}$/.test(lower) ? { kind: 'type', value: lower, negate } : null;
    case 'domain': {
      const host = domainValue(value);
      return host ? { kind: 'domain', value: host, negate } : null;
    }
    case '_id':
      return /^\d{1,15}$/.test(value) ? { kind: 'id', value: Number(value), negate } : null;
    case 'lang':
      return /^[a-z]{2,3}(?:[-_][a-z0-9]{1,8})?$/.test(lower) ? { kind: 'lang', value: lower, negate } : null;
  }
  return null;
}

/** `example.com`, `www.example.com` or a pasted `https://example.com/page` all mean example.com. */
function domainValue(value: string): string | null {
  let host = value.toLowerCase().replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  host = host.replace(/[/?#].*$/, '').replace(/:\d+$/, '').replace(/^www\./, '').replace(/\.$/, '');
  return /^[\p{L}\p{N}._-]+$/u.test(host) ? host : null;
}

/** `2024`, `2024-05`, `2024-05-01`, each optionally after `<` or `>`. */
function dateTerm(field: DateField, value: string, negate: boolean): Term | null {
  const m = /^([<>])?(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/.exec(value);
  if (!m) return null;
  const year = Number(m[2]);
  const month = m[3] === undefined ? null : Number(m[3]);
  const day = m[4] === undefined ? null : Number(m[4]);
  if (month !== null && (month < 1 || month > 12)) return null;
  let from: number;
  let to: number;
  if (month === null) {
    from = Date.UTC(year, 0, 1);
    to = Date.UTC(year + 1, 0, 1);
  } else if (day === null) {
    from = Date.UTC(year, month - 1, 1);
    to = Date.UTC(year, month, 1);
  } else {
    from = Date.UTC(year, month - 1, day);
    if (new Date(from).getUTCDate() !== day) return null; // 2024-02-31
    to = Date.UTC(year, month - 1, day + 1);
  }
  const op = (m[1] ?? '=') as '=' | '<' | '>';
  return { kind: 'date', field, op, from: isoYear(from), to: isoYear(to), negate };
}

/** ISO text of a timestamp; years 0000-9999 only, so string comparison with stored ISO dates works. */
function isoYear(ms: number): string {
  return new Date(ms).toISOString();
}

/** The older JSON form: `[{"key":"tag","val":"x"}, ...]`, keys word, tag, notag, important, type, domain. */
function parseLegacyJson(text: string): SearchQuery | null {
  const t = text.trim();
  if (!t.startsWith('[') || !t.endsWith(']')) return null;
  let data: unknown;
  try {
    data = JSON.parse(t);
  } catch {
    return null;
  }
  if (!Array.isArray(data) || data.length === 0) return null;
  if (!data.every((d) => d && typeof d === 'object' && !Array.isArray(d) && typeof (d as { key?: unknown }).key === 'string')) {
    return null;
  }
  const query: SearchQuery = { match: 'AND', terms: [] };
  for (const item of data as { key: string; val?: unknown }[]) {
    const key = item.key.toLowerCase();
    const raw = item.val;
    const val = raw === undefined || raw === null ? '' : clean(String(raw)).trim();
    const truthy = raw === true || /^(true|1)$/i.test(val) || raw === undefined;
    switch (key) {
      case 'word': {
        const sub: SearchQuery = { match: 'AND', terms: [] };
        readTerms(val, sub);
        query.terms.push(...sub.terms);
        if (sub.match === 'OR') query.match = 'OR';
        break;
      }
      case 'tag':
        if (val) query.terms.push({ kind: 'tag', value: val.replace(/^#/, ''), negate: false });
        break;
      case 'notag':
      case 'important':
        query.terms.push({ kind: 'flag', flag: key, value: truthy, negate: false });
        break;
      case 'type':
        if (/^[a-z]{1,20}$/i.test(val)) query.terms.push({ kind: 'type', value: val.toLowerCase(), negate: false });
        break;
      case 'domain': {
        const host = domainValue(val);
        if (host) query.terms.push({ kind: 'domain', value: host, negate: false });
        break;
      }
      default:
        break; // unknown keys are ignored, as the older clients expect
    }
  }
  query.terms = query.terms.slice(0, MAX_TERMS);
  return query;
}
