// What the rest of the server imports from the repositories: the contract (types.ts). The
// implementations (./sqlite, later ./postgres) are chosen once, where the database is opened.
export * from './types.js';
