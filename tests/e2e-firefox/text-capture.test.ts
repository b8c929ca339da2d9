// The page's text in Firefox: pressing the toolbar button on a page whose article its script wrote
// after load sends the page as Firefox shows it, and the library finds the page by a phrase of that
// article, with the snippet under the title.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { waitFor } from './helpers/firefox-extension.js';
import { signedInFirefoxTest } from './helpers/setup.js';
import type { Bookmark } from '../../lib/api/types.js';
import { ROOT } from '../../scripts/build-extension.js';

const SHOTS = path.join(ROOT, 'test-results', 'firefox');
const PHRASE = 'the vixen crossed the salt marsh at low water';
const ARTICLE = `<article><h2>Marsh notes</h2><p>At dawn ${PHRASE}, leaving prints the tide filled by noon.</p>
<p>${'The warden counts the prints along the dyke each morning and writes them in a book. '.repeat(6)}</p></article>`;
/** Its script carries the article base64-encoded: the HTML the server would fetch holds none of its words. */
const LATE_ARTICLE = `<main id="app"><p>Loading…</p></main>
<script>
  addEventListener('load', () => {
    document.getElementById('app').innerHTML = new TextDecoder().decode(Uint8Array.from(atob('${Buffer.from(ARTICLE).toString('base64')}'), (c) => c.charCodeAt(0)));
  });
</script>`;

const test = signedInFirefoxTest({ email: 'fox-text@example.test', name: 'Fen Text' });

test('a page saved with the toolbar button is found in the library by its text', async ({ server, site, token, ff }) => {
  const url = site.add('/marsh', { title: 'Marsh notes', body: LATE_ARTICLE });
  expect(await (await fetch(url)).text()).not.toContain('salt marsh');
  const tab = await ff.browser.newPage();
  await tab.goto(url);
  await waitFor('the article to be written', () => tab.evaluate((p) => (document.body.textContent?.includes(p) ? true : undefined), PHRASE));
  const popup = await ff.pressToolbarButton(tab);
  await popup.waitForStatus('Saved');
  const [saved] = (await server.api('GET', '/bookmarks/0', token)).body.items as Bookmark[];
  expect(saved.link).toBe(url);
  // The upload follows the save; on a busy machine the server's parse pool may still be starting.
  await waitFor(
    'the text to be indexed',
    async () => ((await server.api('GET', `/bookmark/${saved._id}/article`, token)).body.status === 'indexed' ? true : undefined),
    30_000,
  );

  const library = await ff.openExtensionPage('library.html');
  await library.setViewport({ width: 1280, height: 800 });
  await library.click('[role="combobox"]');
  await library.keyboard.type('"salt marsh" vixen');
  const shown = await waitFor('the page with its snippet', () =>
    library.evaluate(() => {
      const rows = [...document.querySelectorAll('.bookmark')];
      const snippet = rows.length === 1 ? rows[0].querySelector('.snippet') : null;
      return snippet ? { title: rows[0].querySelector('.title')?.textContent, text: snippet.textContent, marks: [...snippet.querySelectorAll('mark')].map((m) => m.textContent) } : undefined;
    }),
  );
  expect(shown.title).toBe('Marsh notes');
  expect(shown.text).toContain(PHRASE);
  expect(shown.marks).toEqual(['vixen', 'salt marsh']);
  fs.mkdirSync(SHOTS, { recursive: true });
  await library.screenshot({ path: path.join(SHOTS, 'library-text-search.png') });
  await library.close();
  await tab.close();
});
