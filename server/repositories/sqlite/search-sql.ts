import type { SearchQuery, Term } from '../../domain/search/ast.js';
import { hasIndexableText, parseSearch } from '../../domain/search/parse.js';
import { escapeLike, FLAG_SQL } from '../search-flags-sql.js';

// The SQLite (FTS5) form of the search language: only repositories compile searches; routes and
// services hand them the expression text (the parser, domain/search, stays backend-neutral).

/**
 * A search expression compiled to SQL: `where` is a boolean expression over the `bookmarks`
 * table aliased `b` (safe to AND with other conditions), with `?` placeholders for `params`.
 */
export interface CompiledSearch {
  where: string;
  params: unknown[];
  /**
   * The FTS5 MATCH text of the positive full-text terms, for relevance ranking with
   * `bm25(bookmarks_fts)`; null when the expression has no positive full-text term.
   */
  rankMatch: string | null;
  /**
   * Set when every match must also match this FTS5 query (AND mode with a full-text term): the
   * caller may then drive the query from the full-text index (see bookmark-queries.ts).
   */
  matchFilter: string | null;
  /**
   * With `matchFilter`: the rest of `where` (the terms that are not full-text), for a caller that
   * has already read the rows matching `matchFilter` from the index and only needs to check these.
   */
  rest: { where: string; params: unknown[] };
}

/** Text as one FTS5 string: always quoted, inner quotes doubled, so no user text is read as FTS5 syntax. */
export function ftsString(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** FTS5 column names of `bookmarks_fts` that `field` terms filter on. */
const FTS_COLUMN = { title: 'title', excerpt: 'excerpt', note: 'note', link: 'link' } as const;

/** The FTS5 query for one full-text term, or null when the term is not a full-text one. */
function ftsQuery(term: Term): string | null {
  switch (term.kind) {
    case 'word':
      return `${ftsString(term.value)}*`;
    case 'phrase':
      return ftsString(term.value);
    case 'field':
      return `${FTS_COLUMN[term.field]} : ${ftsString(term.value)}*`;
    default:
      return null;
  }
}

const FTS_IN = 'b.id IN (SELECT rowid FROM bookmarks_fts WHERE bookmarks_fts MATCH ?)';
const FTS_NOT_IN = 'b.id NOT IN (SELECT rowid FROM bookmarks_fts WHERE bookmarks_fts MATCH ?)';
const TAG_EXISTS = 'EXISTS (SELECT 1 FROM bookmark_tags bt WHERE bt.bookmark_id = b.id AND bt.tag = ? COLLATE NOCASE)';

/** SQL for a term that is not full-text (its negation applied by the caller). */
function plainSql(term: Term): { sql: string; params: unknown[] } {
  switch (term.kind) {
    case 'tag':
      return { sql: TAG_EXISTS, params: [term.value] };
    case 'type':
      return { sql: 'b.type = ?', params: [term.value] };
    case 'date': {
      const col = term.field === 'created' ? 'b.created' : 'b.last_update';
      if (term.op === '<') return { sql: `${col} < ?`, params: [term.from] };
      if (term.op === '>') return { sql: `${col} >= ?`, params: [term.to] };
      return { sql: `(${col} >= ? AND ${col} < ?)`, params: [term.from, term.to] };
    }
    case 'flag':
      return { sql: term.value ? FLAG_SQL[term.flag] : `NOT (${FLAG_SQL[term.flag]})`, params: [] };
    case 'domain':
      return { sql: "(b.domain = ? OR b.domain LIKE ? ESCAPE '\\')", params: [term.value, `%.${escapeLike(term.value)}`] };
    case 'id':
      return { sql: 'b.id = ?', params: [term.value] };
    case 'lang':
      return {
        sql: "(coalesce(b.lang, '') = ? COLLATE NOCASE OR coalesce(b.lang, '') LIKE ? ESCAPE '\\')",
        params: [term.value, `${escapeLike(term.value)}-%`],
      };
    default:
      throw new Error(`not a plain term: ${term.kind}`);
  }
}

/**
 * Compiles a parsed expression to SQL over `bookmarks b`. Full-text terms are gathered into as
 * few FTS5 MATCH subqueries as possible (one for all positive terms), so a word search is one
 * index lookup. In AND mode a positive tag is also added to that MATCH as a `tags : "..."`
 * phrase: the index narrows the rows, the exact (case-insensitive) tag check then confirms them.
 */
function compileQuery(query: SearchQuery): CompiledSearch {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const positive: string[] = [];
  const negative: string[] = [];
  const prefilter: string[] = [];
  const and = query.match === 'AND';

  for (const term of query.terms) {
    const fts = ftsQuery(term);
    if (fts !== null) {
      (term.negate ? negative : positive).push(fts);
      continue;
    }
    const { sql, params: p } = plainSql(term);
    clauses.push(term.negate ? `NOT (${sql})` : sql);
    params.push(...p);
    if (!term.negate && and && (term.kind === 'tag' || term.kind === 'domain') && hasIndexableText(term.value)) {
      // Prefilter through the index (its words are a superset of the exact matches); the clause
      // above then keeps only exact, case-insensitive tag or domain matches.
      prefilter.push(`${term.kind === 'tag' ? 'tags' : 'domain'} : ${ftsString(term.value)}`);
    }
  }

  let rankMatch: string | null = null;
  let matchFilter: string | null = null;
  const ftsClauses: string[] = [];
  const ftsParams: unknown[] = [];
  if (and) {
    const pos = [...positive, ...prefilter];
    if (pos.length > 0) {
      let match = pos.map((q) => `(${q})`).join(' AND ');
      if (negative.length > 0) match = `(${match}) NOT (${negative.map((q) => `(${q})`).join(' OR ')})`;
      ftsClauses.push(FTS_IN);
      ftsParams.push(match);
      rankMatch = match;
      matchFilter = match;
    } else if (negative.length > 0) {
      ftsClauses.push(FTS_NOT_IN);
      ftsParams.push(negative.map((q) => `(${q})`).join(' OR '));
    }
  } else {
    if (positive.length > 0) {
      const match = positive.map((q) => `(${q})`).join(' OR ');
      ftsClauses.push(FTS_IN);
      ftsParams.push(match);
      rankMatch = match;
    }
    for (const q of negative) {
      ftsClauses.push(FTS_NOT_IN);
      ftsParams.push(q);
    }
  }

  // Full-text clauses first: in AND mode they are the most selective part.
  const all = [...ftsClauses, ...clauses];
  const allParams = [...ftsParams, ...params];
  if (all.length === 0) return { where: '1', params: [], rankMatch: null, matchFilter: null, rest: { where: '1', params: [] } };
  const where = all.length === 1 ? all[0] : `(${all.join(and ? ' AND ' : ' OR ')})`;
  // In AND mode the match is one clause of an AND: what remains are the plain clauses.
  const rest = matchFilter && clauses.length > 0 ? { where: clauses.length === 1 ? clauses[0]! : `(${clauses.join(' AND ')})`, params } : { where: '1', params: [] };
  return { where, params: allParams, rankMatch, matchFilter, rest };
}

/**
 * Turns a `search` expression into an SQL boolean over `bookmarks b` plus its parameters.
 * Never throws on user input: malformed parts degrade to plain words. `where` is `'1'` for an
 * empty expression.
 */
export function compileSearch(expr: string | null | undefined): CompiledSearch {
  return compileQuery(parseSearch(expr));
}
