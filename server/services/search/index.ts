// The search language: `parseSearch` turns a `search` expression into a backend-neutral query
// (ast.ts). Each database backend compiles that query inside its repositories.
export type { SearchQuery, Term } from './ast.js';
export { parseSearch } from './parse.js';
