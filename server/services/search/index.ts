import { compileQuery, type CompiledSearch } from './compile.js';
import { parseSearch } from './parse.js';

export type { SearchQuery, Term } from './ast.js';
export type { CompiledSearch } from './compile.js';
export { parseSearch } from './parse.js';
export { compileQuery, ftsString } from './compile.js';

/**
 * Turns a `search` expression into an SQL boolean over `bookmarks b` plus its parameters.
 * Never throws on user input: malformed parts degrade to plain words. `where` is `'1'` for an
 * empty expression. Usage:
 *
 *   const s = compileSearch(expr);
 *   db.prepare(`SELECT b.id FROM bookmarks b WHERE b.user_id = ? AND ${s.where}`).all(userId, ...s.params);
 */
export function compileSearch(expr: string | null | undefined): CompiledSearch {
  return compileQuery(parseSearch(expr));
}
