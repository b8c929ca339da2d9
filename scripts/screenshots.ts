// `npm run screenshots`: the README's pictures, taken from the real thing. It starts the real server
// and Chromium with the built extension (the e2e helpers' way), seeds a small library through the
// API, and saves PNGs of the library page, of a saved page with its highlights painted and of the
// web app on a phone-sized screen to docs/images/. Run it after a change a reader would see, and look at the pictures before committing.
//
// This file belongs to the tests' part (tests/tsconfig.json), not to scripts/, because it uses the e2e
// helpers, and scripts/ may not import tests.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { TEST_ENV } from './test-env.js';
import { closeAll, launchSignedIn, PASSWORD, startBackend } from '../tests/e2e/helpers/extension-setup.js';
import { ensureWebBuilt } from '../tests/e2e/helpers/web-build.js';
import type { ExtensionBrowser } from '../tests/e2e/helpers/extension-browser.js';
import type { TidemarkServer } from '../tests/e2e/helpers/tidemark-server.js';
import { dragSelect, highlightToolbar } from '../tests/e2e/helpers/highlighting.js';

Object.assign(process.env, TEST_ENV);

const OUT = path.resolve(import.meta.dirname, '..', 'docs', 'images');
const VIEW = { width: 1280, height: 800 };
/** The article fits whole, title to last line, with the toolbar shown in it. */
const ARTICLE_VIEW = { width: 1280, height: 900 };
/** A common phone's viewport (CSS pixels); the picture is taken at twice that. */
const PHONE_VIEW = { width: 390, height: 844 };

const ARTICLE_STYLE = `<style>
  body { font: 19px/1.65 Georgia, 'DejaVu Serif', serif; color: #222; background: #fdfcf8; max-width: 700px; margin: 0 auto; padding: 48px 32px; }
  h1 { font: 700 38px/1.2 system-ui, 'DejaVu Sans', sans-serif; margin: 0 0 8px; }
  .byline { font: 15px system-ui, 'DejaVu Sans', sans-serif; color: #777; margin: 0 0 32px; }
  p { margin: 0 0 22px; }
</style>`;

const PARAGRAPHS = [
  'Twice a day the sea climbs the harbour wall and twice a day it leaves, and the line it reaches is never quite the same. The old harbour master kept a book of those lines, one entry for every tide he saw.',
  'The moon does most of the pulling. When sun and moon pull along the same line, at new and full moon, the water rises higher and falls lower: these are the spring tides, and they have nothing to do with the season.',
  'A week later the two pull at right angles and the difference between high and low water shrinks. Fishermen call these the neap tides, the quiet ones, when boats can lie in the channel without fear of grounding.',
  'The highest mark on the wall is from the storm of the winter the bell buoy broke loose. Wind and a spring tide came together, and the water stood in the square for an hour before it turned.',
  'Whoever walks the flats at low water should know when the sea returns, and how fast. On a gentle slope the tide comes in quicker than a person can walk, and it fills the channels behind you first.',
  'Tide tables are printed a year ahead, worked out from the motions of the moon and sun. They are right about the hour and almost right about the height; the weather decides the rest.',
];

const HIGHLIGHTS = [
  { text: 'the line it reaches is never quite the same', color: 'yellow' },
  { text: 'these are the spring tides, and they have nothing to do with the season', color: 'green', note: 'So "spring" is about springing up, not the season.' },
  { text: 'the quiet ones', color: 'blue' },
  { text: 'the tide comes in quicker than a person can walk', color: 'pink', note: 'Check the table before the walk to the island.' },
] as const;

/** Collections, then bookmarks in them: a library a person might have after a few weeks. */
async function seedLibrary(server: TidemarkServer, token: string, articleUrl: string): Promise<void> {
  const collection = async (title: string, parent?: number): Promise<number> => {
    const res = await server.api('POST', '/collection', token, { title, ...(parent ? { parent: { $id: parent } } : {}) });
    if (res.status !== 200) throw new Error(`Creating collection ${title}: ${JSON.stringify(res.body)}`);
    return res.body.item._id as number;
  };
  const reading = await collection('Reading');
  const coast = await collection('The coast', reading);
  const recipes = await collection('Recipes');
  const work = await collection('Work');
  await collection('Design notes', work);
  const travel = await collection('Travel');

  const items = [
    { link: 'https://sailing.example/knots', title: 'Six knots every sailor should know', tags: ['sailing', 'howto'], collectionId: coast, excerpt: 'From the bowline to the rolling hitch, with pictures of each step.', created: '2024-09-20T08:00:00Z' },
    { link: 'https://weather.example/reading-clouds', title: 'Reading the clouds before a storm', tags: ['weather'], collectionId: coast, excerpt: 'What cirrus, anvils and a falling barometer tell you a day ahead.', created: '2024-09-18T08:00:00Z', important: true },
    { link: 'https://lighthouses.example/keepers', title: 'The last lighthouse keepers', tags: ['history', 'coast'], collectionId: coast, excerpt: 'Oral histories from the men and women who kept the lights until automation.', created: '2024-09-12T08:00:00Z' },
    { link: 'https://kitchen.example/sourdough', title: 'Sourdough, step by step', tags: ['baking'], collectionId: recipes, excerpt: 'A starter in five days and a loaf on the sixth.', created: '2024-09-16T08:00:00Z', important: true },
    { link: 'https://kitchen.example/fish-soup', title: 'Fisherman\'s soup with saffron', tags: ['cooking', 'fish'], collectionId: recipes, excerpt: 'The harbour-side version, with whatever the boats brought in.', created: '2024-09-10T08:00:00Z' },
    { link: 'https://design.example/spacing', title: 'Spacing systems for interfaces', tags: ['design', 'css'], collectionId: work, excerpt: 'Why a scale of 4 and 8 keeps layouts calm.', created: '2024-09-14T08:00:00Z' },
    { link: 'https://design.example/colour-contrast', title: 'Colour contrast that passes and pleases', tags: ['design', 'accessibility'], collectionId: work, excerpt: 'Meeting contrast ratios without a grey, washed-out palette.', created: '2024-09-08T08:00:00Z' },
    { link: 'https://trains.example/night-trains', title: 'Night trains across Europe', tags: ['trains', 'planning'], collectionId: travel, excerpt: 'Routes, sleeper cabins and what to book first.', created: '2024-09-05T08:00:00Z' },
    { link: 'https://islands.example/walks', title: 'Island walks at low tide', tags: ['walking', 'coast'], collectionId: travel, excerpt: 'Causeways that open twice a day, and the timetables to trust.', created: '2024-09-02T08:00:00Z' },
    { link: 'https://news.example/harbour-rebuild', title: 'The harbour wall will be rebuilt', tags: [], collectionId: -1, excerpt: 'The council approved the plan after last winter\'s storm damage.', created: '2024-09-19T08:00:00Z' },
  ];
  const res = await server.api('POST', '/bookmarks', token, { items });
  if (res.status !== 200) throw new Error(`Seeding bookmarks: ${JSON.stringify(res.body)}`);

  const article = await server.api('POST', '/bookmark', token, {
    link: articleUrl,
    title: 'What the tidemark remembers',
    excerpt: 'Spring tides, neap tides and the line on the harbour wall.',
    tags: ['coast', 'science'],
    collectionId: coast,
    note: 'Read before the island walk.',
    important: true,
    created: '2024-09-21T08:00:00Z',
  });
  if (article.status !== 200) throw new Error(`Saving the article: ${JSON.stringify(article.body)}`);
  const withHighlights = await server.api('PUT', `/bookmark/${article.body.item._id}`, token, { highlights: HIGHLIGHTS });
  if (withHighlights.status !== 200) throw new Error(`Adding highlights: ${JSON.stringify(withHighlights.body)}`);
}

/** Waits until the page shows `count` Tidemark highlights (read from the page's CSS highlight registry). */
async function paintedCount(page: Page, count: number): Promise<void> {
  await page.waitForFunction((n) => {
    const registry = (CSS as unknown as { highlights?: Map<string, Set<AbstractRange>> }).highlights;
    let ranges = 0;
    for (const [name, h] of registry ?? []) {
      if (name.startsWith('tidemark-') && name !== 'tidemark-note' && name !== 'tidemark-flash') ranges += h.size;
    }
    return ranges >= n;
  }, count, { timeout: 20_000 });
}

async function libraryShot(browser: ExtensionBrowser): Promise<void> {
  const page = await browser.context.newPage();
  await page.setViewportSize(VIEW);
  await page.goto(browser.url('library.html'));
  await page.locator('.bookmark .title').first().waitFor();
  await page.getByRole('listitem', { name: /The coast/ }).waitFor();
  // The detail pane of the saved article: its tags, note and highlights beside the list.
  await page.locator('.bookmark', { hasText: 'What the tidemark remembers' }).click();
  await page.locator('aside.detail .hl-list .hl').nth(HIGHLIGHTS.length - 1).waitFor();
  await page.mouse.move(0, VIEW.height - 1);
  await page.screenshot({ path: path.join(OUT, 'library.png') });
  await page.close();
}

async function highlightsShot(browser: ExtensionBrowser, articleUrl: string): Promise<void> {
  const page = await browser.context.newPage();
  await page.setViewportSize(ARTICLE_VIEW);
  // tsx compiles with esbuild's keepNames, which wraps named functions in __name(); the e2e helpers'
  // functions sent into the page need it there (Playwright's test runner compiles without it).
  await page.addInitScript('globalThis.__name = (f) => f');
  await page.goto(articleUrl);
  await paintedCount(page, HIGHLIGHTS.length);
  // A reader selecting one more sentence: the toolbar offers the colours.
  await dragSelect(page, 'Wind and a spring tide came together');
  await highlightToolbar(page).waitFor();
  await page.screenshot({ path: path.join(OUT, 'page-highlights.png') });
  await page.close();
}

/** The web app (served by the server itself) on a phone, signed in through its sign-in page. */
async function webPhoneShot(server: TidemarkServer, email: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const context = await browser.newContext({ viewport: PHONE_VIEW, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(`${server.origin}/?c=0`);
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.locator('.bookmark .title').first().waitFor();
    await page.locator('.nav-title', { hasText: 'The coast' }).waitFor({ state: 'attached' });
    await page.screenshot({ path: path.join(OUT, 'web-phone.png') });
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  fs.mkdirSync(OUT, { recursive: true });
  const email = 'reader@example.test';
  const { server, site, token } = await startBackend({ email, name: 'Robin Reader' }, { webAppDir: await ensureWebBuilt() });
  let browser: ExtensionBrowser | undefined;
  try {
    const body = `${ARTICLE_STYLE}<p class="byline">Notes from the harbour · 6 min read</p>${PARAGRAPHS.map((p) => `<p>${p}</p>`).join('\n')}`;
    const articleUrl = site.add('/tidemark', { title: 'What the tidemark remembers', description: 'Spring tides, neap tides and the line on the harbour wall.', body });
    await seedLibrary(server, token, articleUrl);
    browser = await launchSignedIn(server, token);
    await libraryShot(browser);
    await highlightsShot(browser, articleUrl);
    await webPhoneShot(server, email);
    for (const name of ['library.png', 'page-highlights.png', 'web-phone.png']) console.log(path.relative(process.cwd(), path.join(OUT, name)));
  } finally {
    await closeAll(browser, site, server);
  }
}

await main();
