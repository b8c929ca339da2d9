// How soon a page saved from the extension can be found by what it says. Chromium with the built
// extension against the real server (SQLite) on loopback: each round opens a new page whose article a
// script writes after load (the server's own fetch would not see it), presses the real toolbar button,
// and asks the server's search for a phrase of that article every 10 ms until the page is found.
// Prints press -> found (ms). Bounded: each round gives up after 20 s.
//
//   npx tsx bench/extension/text-searchable.ts [rounds]
import { closeAll, launchSignedIn, startBackend } from '../../tests/e2e/helpers/extension-setup.js';

const rounds = Number(process.argv[2] ?? 10);
const GIVE_UP_MS = 20_000;

/** An article of about 6 KB whose `phrase` is written into the page by its script after load. */
function latePage(phrase: string): string {
  const filler = 'The harbour office keeps one ledger a year, and the keepers copy each reading by hand. '.repeat(70);
  const article = `<article><h1>Harbour records</h1><p>${filler}</p><p>Every morning ${phrase}.</p></article>`;
  const encoded = Buffer.from(article).toString('base64');
  return `<main id="app"><p>Loading…</p></main><script>addEventListener('load', () => {
    document.getElementById('app').innerHTML = new TextDecoder().decode(Uint8Array.from(atob('${encoded}'), (c) => c.charCodeAt(0)));
  });</script>`;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const { server, site, token } = await startBackend({ email: 'searchable@example.test', name: 'Bench' });
  const browser = await launchSignedIn(server, token, { toolbarButton: true });
  const words = ['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'heron', 'indigo', 'jetty', 'kelp', 'lagoon'];
  const found: number[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const phrase = `the ${words[i % words.length]} gauge number ${i} counted ${words[(i + 5) % words.length]} tides`;
      const url = site.add(`/searchable-${i}`, { title: `Harbour records ${i}`, body: latePage(phrase) }).replace('localhost', '127.0.0.1');
      const page = await browser.context.newPage();
      await page.goto(url);
      await page.getByText(phrase).waitFor();
      const pressed = Date.now();
      const popup = await browser.clickToolbarButton(page);
      const query = encodeURIComponent(`"${phrase}"`);
      let at = 0;
      while (!at && Date.now() - pressed < GIVE_UP_MS) {
        const res = await server.api('GET', `/bookmarks/0?search=${query}`, token);
        if (res.body.items?.length) at = Date.now();
        else await new Promise((r) => setTimeout(r, 10));
      }
      if (at) found.push(at - pressed);
      else console.log(`round ${i}: not found within ${GIVE_UP_MS / 1000} s`);
      await popup.close();
      await page.close();
    }
  } finally {
    await closeAll(browser, site, server);
  }
  const sorted = [...found].sort((a, b) => a - b);
  if (!sorted.length) return console.log('no page was found by its text');
  console.log(`toolbar press -> found by its text (${sorted.length} of ${rounds} pages): median ${percentile(sorted, 50)} ms, p90 ${percentile(sorted, 90)} ms, max ${sorted.at(-1)} ms`);
}

void main();
