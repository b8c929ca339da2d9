// The web app's reader on a phone, against the real server: opened by its own address (a deep link
// through sign-in), kept by a reload, fitted to the screen, the bookmark's highlights painted, a new
// one made there stored like any other, no serious finding of axe; Back returns to the list. A page
// whose text is still pending says so, and shows the text by itself once it arrives.
import { expect, test } from '@playwright/test';
import { describeFindings, seriousViolations } from './helpers/axe.js';
import { dragSelect, highlightToolbar, painted } from './helpers/highlighting.js';
import { phone, startWebBackend, type WebBackend } from './helpers/web-app.js';

let w: WebBackend;
let id: number;

const ARTICLE = `<!doctype html><html><head><title>Neap and spring tides</title><meta property="og:site_name" content="Tide School"></head><body><article>
<h1>Neap and spring tides</h1><p class="byline">By Ana Ferreira</p>
<p>Twice a month the sun and the moon pull in line, and the tides run high and low: these are the spring tides, which have nothing to do with the season.</p>
<p>When the sun and the moon pull at right angles the range is smallest. Sailors call these the neap tides, and harbour masters plan their dredging by them.</p>
${'<p>A tide table lists, for every day, the times and heights of high and low water at one port, worked out years ahead from the movements of the sun and the moon.</p>'.repeat(10)}
</article></body></html>`;

test.beforeAll(async () => {
  w = await startWebBackend('web-reader@example.test');
  id = w.ids['Neap and spring tides'];
  const put = await w.s.api('PUT', `/bookmark/${id}/article`, { token: w.token, body: { html: ARTICLE, url: 'https://example.com/0' } });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  await expect.poll(async () => (await w.s.api('GET', `/bookmark/${id}/article`, { token: w.token })).body.status, { timeout: 20_000 }).toBe('indexed');
  const hl = await w.s.api('PUT', `/bookmark/${id}`, { token: w.token, body: { highlights: [{ text: 'these are the spring tides', color: 'blue', note: 'Not the season!' }] } });
  expect(hl.status).toBe(200);
});
test.afterAll(() => w?.close());

test('on a phone: the reader’s own address through sign-in and a reload, fitted to the screen, highlights painted and made; Back to the list', async ({ browser }) => {
  const { context, page } = await phone(browser);
  try {
    await w.signIn(page, `/?read=${id}`);
    await expect(page).toHaveURL(new RegExp(`/\\?read=${id}$`));
    const reader = page.getByRole('region', { name: 'Reader' });
    await expect(reader.getByRole('heading', { level: 1 })).toHaveText('Neap and spring tides');
    await expect(reader.locator('.reader-site')).toHaveText('Tide School');
    await expect(reader.locator('.reader-time')).toHaveText(/^\d+ min read$/);
    await expect.poll(() => painted(page, { notes: true })).toEqual({ blue: ['these are the spring tides'], note: ['these are the spring tides'] });

    await page.reload();
    await expect(reader.locator('.reader-article')).toContainText('neap tides');
    const findings = await seriousViolations(page);
    expect(findings, describeFindings(findings)).toEqual([]);
    // Nothing wider than the phone: no sideways scrolling.
    const widths = await reader.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, page: document.documentElement.scrollWidth, view: innerWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    expect(widths.page).toBeLessThanOrEqual(widths.view);

    await dragSelect(page, 'Sailors call these the neap tides');
    await expect(highlightToolbar(page)).toHaveCSS('background-color', 'rgb(31, 35, 40)');
    await highlightToolbar(page).getByRole('button', { name: 'Green' }).click();
    await expect.poll(async () => ((await w.s.api('GET', `/bookmark/${id}`, { token: w.token })).body.item.highlights as { text: string; prefix?: string }[]).map((h) => [h.text, !!h.prefix])).toContainEqual(['Sailors call these the neap tides', true]);
    await expect.poll(async () => (await painted(page)).green).toEqual(['Sailors call these the neap tides']);
    // The reader and its highlighter run under the app's strict policy. The shared highlighter UI
    // (lib/highlighter/ui, sized to the extension's injected-script budget) writes its CSS into
    // <style> elements, which that policy refuses; the reader gives the same rules as constructed
    // sheets (the toolbar was styled, above). Nothing else was blocked.
    expect((await w.blocked(page)).filter((b) => !b.startsWith('style-src-elem inline'))).toEqual([]);

    await reader.getByRole('button', { name: /Back/ }).click();
    await expect(reader).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`${w.s.origin.replace(/[.]/g, '\\.')}/$`));
    await expect(page.locator('.bookmark', { hasText: 'Neap and spring tides' })).toBeVisible();
  } finally {
    await context.close();
  }
});

test('a page whose text is not there yet: the reader says it is being fetched, then shows it by itself', async ({ browser }) => {
  const storm = w.ids['Storm surge warnings'];
  expect((await w.s.api('GET', `/bookmark/${storm}/article`, { token: w.token })).body.status).toBe('pending');
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await w.signIn(page, `/?read=${storm}`);
    const reader = page.getByRole('region', { name: 'Reader' });
    await expect(reader.getByRole('status')).toContainText('The text is being fetched…');
    await expect(reader.getByRole('heading', { level: 1 })).toHaveText('Storm surge warnings');
    // The text arrives (as the extension's capture would send it): the open reader shows it without a reload.
    const html = '<!doctype html><html><head><title>Storm surge warnings</title></head><body><article><h1>Storm surge warnings</h1><p>When a deep low crosses the shelf at high water, the sea stands higher than any table says, and the warnings go out to every port along the coast.</p></article></body></html>';
    expect((await w.s.api('PUT', `/bookmark/${storm}/article`, { token: w.token, body: { html, url: 'https://example.com/1' } })).status).toBe(200);
    await expect(reader.locator('.reader-article')).toContainText('the sea stands higher than any table says', { timeout: 20_000 });
  } finally {
    await context.close();
  }
});
