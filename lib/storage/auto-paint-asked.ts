// Where the answer to the popup's question about site access (automatic painting) is stored, in
// storage.local. Named apart from items.ts so that the popup's first script (lib/popup/site-access-state.ts)
// reads it without loading every other item's declaration.
export const AUTO_PAINT_ASKED_KEY = 'autoPaintAsked';
