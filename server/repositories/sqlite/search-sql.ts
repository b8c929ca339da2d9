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
   * A SELECT of `(id, rank)` for every full-text match (title, tags, ... and, for plain words and
   * phrases, the page text), for relevance ranking: lower is better; matches found only in page
   * text have rank PAGE_TEXT_RANK, below every other. Null when the expression has no positive
   * full-text term.
   */
  rankSql: SqlPart | null;
  /**
   * Set when every match must be one of `rankSql`'s rows (AND mode with a full-text term): the
   * caller may then drive the query from the full-text index (see bookmark-queries.ts).
   */
  matchSql: SqlPart | null;
  /**
   * With `matchSql`: the rest of `where` (the terms that are not full-text), for a caller that
   * has already read the rows of `matchSql` and only needs to check these.
   */
  rest: { where: string; params: unknown[] };
}

export interface SqlPart {
  sql: string;
  params: unknown[];
}

/** Rank of a match found only in the page's text: after every match in the bookmark's own fields. */
const PAGE_TEXT_RANK = 1e9;

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
const FTS_ROWS = 'SELECT rowid AS id, rank FROM bookmarks_fts WHERE bookmarks_fts MATCH ?';
const FTS_IDS = 'SELECT rowid AS id FROM bookmarks_fts WHERE bookmarks_fts MATCH ?';
const PAGE_IDS = 'SELECT rowid AS id FROM article_fts WHERE article_fts MATCH ?';
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
  /** Positive full-text terms that are not plain words or phrases (field terms): the bookmark's own index only. */
  const fieldOnly: string[] = [];
  /** Positive plain words and phrases: [query on bookmarks_fts, query on article_fts]. */
  const plain: [string, string][] = [];
  const and = query.match === 'AND';

  for (const term of query.terms) {
    const fts = ftsQuery(term);
    if (fts !== null) {
      (term.negate ? negative : positive).push(fts);
      if (!term.negate && (term.kind === 'word' || term.kind === 'phrase') && hasIndexableText(term.value)) {
        // Page text matches whole words: see domain/search/page-text-terms.ts.
        plain.push([fts, ftsString(term.value)]);
      } else if (!term.negate) fieldOnly.push(fts);
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

  let rankSql: SqlPart | null = null;
  let matchSql: SqlPart | null = null;
  const ftsClauses: string[] = [];
  const ftsParams: unknown[] = [];
  const anyOf = (qs: string[]) => qs.map((q) => `(${q})`).join(' OR ');
  const allOf = (qs: string[]) => qs.map((q) => `(${q})`).join(' AND ');
  if (and) {
    const pos = [...positive, ...prefilter];
    if (pos.length > 0) {
      let match = allOf(pos);
      if (negative.length > 0) match = `(${match}) NOT (${anyOf(negative)})`;
      if (plain.length === 0) {
        matchSql = { sql: FTS_ROWS, params: [match] };
        ftsClauses.push(FTS_IN);
        ftsParams.push(match);
      } else {
        const viaText = pageTextMatches(plain, [...fieldOnly, ...prefilter], negative);
        matchSql = {
          sql: `SELECT id, min(rank) AS rank FROM (${FTS_ROWS} UNION ALL SELECT id, ${PAGE_TEXT_RANK} FROM (${viaText.sql})) GROUP BY id`,
          params: [match, ...viaText.params],
        };
        ftsClauses.push(`b.id IN (${FTS_IDS} UNION ALL ${viaText.sql})`);
        ftsParams.push(match, ...viaText.params);
      }
      rankSql = matchSql;
    } else if (negative.length > 0) {
      ftsClauses.push(FTS_NOT_IN);
      ftsParams.push(anyOf(negative));
    }
  } else {
    if (positive.length > 0) {
      const match = anyOf(positive);
      if (plain.length === 0) {
        rankSql = { sql: FTS_ROWS, params: [match] };
        ftsClauses.push(FTS_IN);
        ftsParams.push(match);
      } else {
        const text = anyOf(plain.map((p) => p[1]));
        rankSql = {
          sql: `SELECT id, min(rank) AS rank FROM (${FTS_ROWS} UNION ALL SELECT rowid, ${PAGE_TEXT_RANK} FROM article_fts WHERE article_fts MATCH ?) GROUP BY id`,
          params: [match, text],
        };
        ftsClauses.push(`b.id IN (${FTS_IDS} UNION ALL ${PAGE_IDS})`);
        ftsParams.push(match, text);
      }
    }
    for (const q of negative) {
      ftsClauses.push(FTS_NOT_IN);
      ftsParams.push(q);
    }
  }

  // Full-text clauses first: in AND mode they are the most selective part.
  const all = [...ftsClauses, ...clauses];
  const allParams = [...ftsParams, ...params];
  if (all.length === 0) return { where: '1', params: [], rankSql: null, matchSql: null, rest: { where: '1', params: [] } };
  const where = all.length === 1 ? all[0] : `(${all.join(and ? ' AND ' : ' OR ')})`;
  // In AND mode the match is one clause of an AND: what remains are the plain clauses.
  const rest = matchSql && clauses.length > 0 ? { where: clauses.length === 1 ? clauses[0]! : `(${clauses.join(' AND ')})`, params } : { where: '1', params: [] };
  return { where, params: allParams, rankSql, matchSql, rest };
}

/**
 * AND mode: the ids whose every plain word or phrase is in the bookmark's own fields or in its
 * page text, with at least one only in the text would do, that also match the field terms and
 * none of the negated ones (which look at the bookmark's own fields, as before). One term: its
 * page-text matches (its own-field matches are the other half of the caller's union).
 */
function pageTextMatches(plain: [string, string][], fieldOnly: string[], negative: string[]): SqlPart {
  let sql: string;
  const params: unknown[] = [];
  if (plain.length === 1) {
    sql = PAGE_IDS;
    params.push(plain[0]![1]);
  } else {
    sql = plain.map(() => `SELECT id FROM (${FTS_IDS} UNION ${PAGE_IDS})`).join(' INTERSECT ');
    for (const [own, text] of plain) params.push(own, text);
  }
  const where: string[] = [];
  if (fieldOnly.length > 0) {
    let match = fieldOnly.map((q) => `(${q})`).join(' AND ');
    if (negative.length > 0) match = `(${match}) NOT (${negative.map((q) => `(${q})`).join(' OR ')})`;
    where.push(`id IN (${FTS_IDS})`);
    params.push(match);
  } else if (negative.length > 0) {
    where.push(`id NOT IN (${FTS_IDS})`);
    params.push(negative.map((q) => `(${q})`).join(' OR '));
  }
  return { sql: where.length ? `SELECT id FROM (${sql}) WHERE ${where.join(' AND ')}` : sql, params };
}

/**
 * Turns a `search` expression into an SQL boolean over `bookmarks b` plus its parameters.
 * Never throws on user input: malformed parts degrade to plain words. `where` is `'1'` for an
 * empty expression.
 */
export function compileSearch(expr: string | null | undefined): CompiledSearch {
  return compileQuery(parseSearch(expr));
}
