// The shared API module: constants, schemas and the types derived from them.
export * from './constants.js';
export * from './types.js';
export * from './url.js';
