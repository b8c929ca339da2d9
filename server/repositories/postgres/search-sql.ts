// The PostgreSQL form of the search language: the parsed query (server/domain/search) compiled to a
// boolean over `bookmarks b`, using the weighted `search` tsvector column (GIN index) of migration
// 0001: title A, tags B, excerpt, note and highlights C, link words and domain D. It gives the same
// matches as the SQLite (FTS5) compiler for every expression (tested side by side on one corpus).
import type { SearchQuery, Term, TextField } from '../../domain/search/ast.js';
import { parseSearch } from '../../domain/search/parse.js';
import { escapeLike, FLAG_SQL } from '../search-flags-sql.js';
import { ARTICLE_WORDS } from './articles.js';

/**
 * A compiled search: `where` over `bookmarks b` with `?` placeholders for `params` (the caller
 * numbers them), and `rank`, the tsquery text of the positive full-text terms for `ts_rank`
 * (null when there is none).
 */
interface PgCompiledSearch {
  where: string;
  params: unknown[];
  rank: string | null;
}

/** Words as both backends' indexes split them: runs of letters and digits. */
function words(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * tsquery text for `text`: its words in sequence (`<->`), the last a prefix when `prefix`, each
 * restricted to `weights` when given. Words hold letters and digits only, so quoting them is safe.
 * Null when the text has no word (the SQLite compiler then matches nothing either).
 */
function tsq(text: string, prefix: boolean, weights = ''): string | null {
  const ws = words(text);
  if (ws.length === 0) return null;
  return ws.map((w, i) => `'${w}'${i === ws.length - 1 && prefix ? `:*${weights}` : weights ? `:${weights}` : ''}`).join(' <-> ');
}

/** Weight of each field term's column in the search document; excerpt and note share C with highlights. */
const FIELD_WEIGHT: Record<TextField, string> = { title: 'A', excerpt: 'C', note: 'C', link: 'D' };

/** The field's own words, to confirm a weight-restricted index match (C and D hold more than one column). */
const FIELD_DOC: Record<TextField, string | null> = {
  title: null,
  excerpt: "to_tsvector('tidemark', tidemark_words(b.excerpt))",
  note: "to_tsvector('tidemark', tidemark_words(b.note))",
  link: "to_tsvector('tidemark', tidemark_words(tidemark_link_words(b.link)))",
};

const ASCII_UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ASCII_LOWER = 'abcdefghijklmnopqrstuvwxyz';
/** Case folding of ASCII letters only, as SQLite's NOCASE does. */
const fold = (sql: string) => `translate(${sql}, '${ASCII_UPPER}', '${ASCII_LOWER}')`;

/**
 * The ids of bookmarks whose own fields match `own`, or whose page text matches `text`, as a
 * parenthesised SELECT: each side reads its GIN index. Standing alone the sides are joined by
 * UNION: the planner then takes the ids' number from the indexes' estimates instead of guessing
 * 200, and for a common word (tens of thousands of pages) joins them by hash rather than looking
 * each bookmark up in turn. Within an INTERSECT, which removes duplicates itself, UNION ALL.
 */
function plainTermIds(own: string, text: string, op: 'UNION' | 'UNION ALL'): { sql: string; params: unknown[] } {
  return {
    sql: `(SELECT id FROM bookmarks WHERE search @@ to_tsquery('tidemark', ?)
           ${op} SELECT bookmark_id FROM article_texts WHERE ${ARTICLE_WORDS} @@ to_tsquery('tidemark', ?))`,
    params: [own, text],
  };
}

/**
 * SQL for one term (before its negation), or null for a full-text term without any word. `rank`
 * is the term's part of the relevance query; `andRank` a part it adds in AND mode only (a tag or a
 * domain, as the SQLite compiler's index prefilter does, so `#tag` with sort=score ranks too).
 */
function termSql(term: Term): { sql: string; params: unknown[]; rank?: string; andRank?: string; ids?: { sql: string; params: unknown[] } } | null {
  switch (term.kind) {
    case 'word':
    case 'phrase': {
      const q = tsq(term.value, term.kind === 'word');
      if (q === null) return null;
      // Negated, a word looks at the bookmark's own fields only (as before page text was indexed).
      if (term.negate) return { sql: "b.search @@ to_tsquery('tidemark', ?)", params: [q], rank: q };
      // The bookmark's fields, or its page text (whole words: domain/search/page-text-terms.ts).
      const text = tsq(term.value, false)!;
      const alone = plainTermIds(q, text, 'UNION');
      return { sql: `b.id IN ${alone.sql}`, params: alone.params, rank: q, ids: plainTermIds(q, text, 'UNION ALL') };
    }
    case 'field': {
      const q = tsq(term.value, true, FIELD_WEIGHT[term.field]);
      if (q === null) return null;
      const doc = FIELD_DOC[term.field];
      if (doc === null) return { sql: "b.search @@ to_tsquery('tidemark', ?)", params: [q], rank: q };
      const plain = tsq(term.value, true)!;
      return { sql: `(b.search @@ to_tsquery('tidemark', ?) AND ${doc} @@ to_tsquery('tidemark', ?))`, params: [q, plain], rank: q };
    }
    case 'tag':
      return {
        sql: `EXISTS (SELECT 1 FROM bookmark_tags bt WHERE bt.bookmark_id = b.id AND ${fold('bt.tag')} = ${fold('?')})`,
        params: [term.value],
        andRank: tsq(term.value, false, 'B') ?? undefined,
      };
    case 'type':
      return { sql: 'b.type = ?', params: [term.value] };
    case 'date': {
      const col = term.field === 'created' ? 'b.created' : 'b.last_update';
      // Byte order, whatever the database's collation: ISO timestamps compare as text.
      if (term.op === '<') return { sql: `${col} < ? COLLATE "C"`, params: [term.from] };
      if (term.op === '>') return { sql: `${col} >= ? COLLATE "C"`, params: [term.to] };
      return { sql: `(${col} >= ? COLLATE "C" AND ${col} < ? COLLATE "C")`, params: [term.from, term.to] };
    }
    case 'flag':
      return { sql: term.value ? FLAG_SQL[term.flag] : `NOT (${FLAG_SQL[term.flag]})`, params: [] };
    case 'domain':
      // SQLite's LIKE ignores ASCII case; equality does not.
      return {
        sql: "(b.domain = ? OR b.domain ILIKE ? ESCAPE '\\')",
        params: [term.value, `%.${escapeLike(term.value)}`],
        andRank: tsq(term.value, false, 'D') ?? undefined,
      };
    case 'id':
      return { sql: 'b.id = ?', params: [term.value] };
    case 'lang':
      return {
        sql: `(${fold("coalesce(b.lang, '')")} = ${fold('?')} OR coalesce(b.lang, '') ILIKE ? ESCAPE '\\')`,
        params: [term.value, `${escapeLike(term.value)}-%`],
      };
  }
}

/**
 * Compiles a parsed expression. AND mode: every term must hold; OR mode: any. A full-text term
 * without any word (e.g. `"""`) matches nothing, and its negation everything, as on SQLite.
 */
function compilePgQuery(query: SearchQuery): PgCompiledSearch {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const ranks: string[] = [];
  const and = query.match === 'AND';
  // AND mode: the plain words' and phrases' id sets are intersected in one subquery, computed once.
  // Apart, each would be a semi-join, and with the planner's low guess of a word's matches in page
  // text the later ones are run again for every row of the first (a second at 100k pages).
  const plain: { sql: string; params: unknown[]; ids: { sql: string; params: unknown[] } }[] = [];
  for (const term of query.terms) {
    const t = termSql(term);
    if (and && t?.ids && !term.negate) {
      plain.push({ sql: t.sql, params: t.params, ids: t.ids });
      if (t.rank) ranks.push(`(${t.rank})`);
      continue;
    }
    const sql = t === null ? 'FALSE' : t.sql;
    clauses.push(term.negate ? `NOT (${sql})` : sql);
    if (t) params.push(...t.params);
    if (t?.rank && !term.negate) ranks.push(`(${t.rank})`);
    if (t?.andRank && !term.negate && and) ranks.push(`(${t.andRank})`);
  }
  if (plain.length === 1) {
    clauses.unshift(plain[0]!.sql);
    params.unshift(...plain[0]!.params);
  } else if (plain.length > 1) {
    clauses.unshift(`b.id IN (${plain.map((p) => p.ids.sql).join(' INTERSECT ')})`);
    params.unshift(...plain.flatMap((p) => p.ids.params));
  }
  if (clauses.length === 0) return { where: 'TRUE', params: [], rank: null };
  const where = clauses.length === 1 ? clauses[0] : `(${clauses.join(and ? ' AND ' : ' OR ')})`;
  return { where, params, rank: ranks.length ? ranks.join(and ? ' & ' : ' | ') : null };
}

export function compilePgSearch(expr: string | null | undefined): PgCompiledSearch {
  return compilePgQuery(parseSearch(expr));
}

/** Numbers `?` placeholders as `$n`, starting after `offset` parameters already placed. */
export function numberPlaceholders(sql: string, offset = 0): string {
  let n = offset;
  return sql.replace(/\?/g, () => `$${++n}`);
}
