// Letting Tidemark read the sites the user visits: the optional host permission, as it is asked for
// and checked (components/shared/site-access.ts, lib/popup/site-access-state.ts).
export const SITE_ACCESS = { origins: ['http://*/*', 'https://*/*'] };
