// What the rest of the server imports from the repositories: the contract (types/, one file per
// resource). The implementations (./sqlite, ./postgres) are chosen once, where the database is opened.
export * from './types/index.js';
