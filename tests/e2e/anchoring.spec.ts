// Text anchoring in real Chromium: computed-style hiding, real mouse selections described and
// re-anchored after a reload, open shadow roots. The libraries are bundled with esbuild and injected.
import { expect, test } from '@playwright/test';
import { FixturePages } from './fixtures/anchoring/harness.js';

let fixtures: FixturePages;

test.beforeAll(async () => {
  fixtures = await FixturePages.start();
});

test.afterAll(() => fixtures?.close());

test('computed style decides what is visible: class rules, visibility, display:contents', async ({ page }) => {
  await fixtures.open(page, 'visibility.html');
  const text = await page.evaluate(() => new window.tidemarkTest.TextIndex(document.getElementById('log')!).text);
  expect(text).toBe(
    'Storm log The first squall arrived at noon. but this part shows Inside a display contents wrapper. ' +
      'Screen reader note. The second squall came at dusk. Decorative but visible. Teaser one.',
  );
  // A highlight on visible text next to hidden text anchors; one made on text that is now hidden does not.
  const results = await page.evaluate(() => {
    const { anchorAll } = window.tidemarkTest;
    return anchorAll(document, [
      { text: 'but this part shows', prefix: 'The first squall arrived at noon. ', suffix: ' Inside a display' },
      { text: 'Hidden by a class rule.', prefix: 'arrived at noon. ', suffix: ' Invisible words' },
    ]).map((r) => (r.status === 'anchored' ? r.range.toString() : r.status));
  });
  expect(results).toEqual(['but this part shows', 'orphan']);
});

test('a mouse selection across inline markup and paragraphs is described, then re-anchored after a reload', async ({ page }) => {
  await fixtures.open(page, 'selection.html');
  // Drag from the start of "inner" (inside <em>) to the end of "channel" (in the next paragraph).
  const box = async (selector: string, word: string, edge: 'start' | 'end') =>
    page.evaluate(
      ([sel, w, e]) => {
        const el = document.querySelector(sel)!;
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
          const at = n.data.indexOf(w);
          if (at < 0) continue;
          const r = document.createRange();
          const i = e === 'start' ? at : at + w.length - 1;
          r.setStart(n, i);
          r.setEnd(n, i + 1);
          const rect = r.getBoundingClientRect();
          return { x: e === 'start' ? rect.left + 1 : rect.right - 1, y: rect.top + rect.height / 2 };
        }
        throw new Error(`fixture has no "${w}"`);
      },
      [selector, word, edge] as const,
    );
  const from = await box('#p1', 'inner', 'start');
  const to = await box('#p2', 'channel', 'end');
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
  const described = await page.evaluate(() => {
    const sel = window.getSelection()!;
    return { selected: sel.toString(), descriptor: window.tidemarkTest.describeRange(document, sel.getRangeAt(0)) };
  });
  expect(described.descriptor).not.toBeNull();
  expect(described.descriptor!.text).toBe(
    'inner basin an hour before high water, when the bar is deep enough. Its crew of three checks the channel',
  );
  expect(described.descriptor!.position).toBe(0);

  await page.reload();
  await fixtures.inject(page);
  const anchored = await page.evaluate((d) => {
    const [r] = window.tidemarkTest.anchorAll(document, [d]);
    if (r.status !== 'anchored') return { status: r.status, text: '', startsIn: '', endsIn: '' };
    return {
      status: r.status,
      text: r.range.toString(),
      startsIn: r.range.startContainer.parentElement!.tagName,
      endsIn: r.range.endContainer.parentElement!.tagName,
    };
  }, described.descriptor!);
  expect(anchored.status).toBe('anchored');
  expect(anchored.text.replace(/\s+/g, ' ')).toBe(described.selected.replace(/\s+/g, ' ').trim());
  expect(anchored.startsIn).toBe('EM');
  expect(anchored.endsIn).toBe('A');
});

test('open shadow roots are read in rendering order (text hidden by the shadow tree\'s own style sheet left out) and their text anchors and paints', async ({ page }) => {
  await fixtures.open(page, 'shadow.html');
  const text = await page.evaluate(() => new window.tidemarkTest.TextIndex(document).text);
  expect(text).toBe(
    'A card about the lifeboat station follows. Lifeboat station The crew launched forty times last winter. ' +
      'Slotted note from the light tree. The station is open to visitors on Sundays.',
  );
  const hit = await page.evaluate(async () => {
    const { anchorAll, createPainter } = window.tidemarkTest;
    const [r] = anchorAll(document, [{ text: 'launched forty times', prefix: 'Lifeboat station The crew ', suffix: ' last winter.' }]);
    if (r.status !== 'anchored') return { status: r.status, keys: [] as string[], inShadow: false };
    const painter = await createPainter(document);
    painter.paint('shadow-1', r.range, { color: 'green' });
    const rect = r.range.getBoundingClientRect();
    return {
      status: r.status,
      inShadow: r.range.startContainer.getRootNode() instanceof ShadowRoot,
      keys: painter.highlightsAt(rect.left + rect.width / 2, rect.top + rect.height / 2),
      styled: document.querySelector('tide-card')!.shadowRoot!.adoptedStyleSheets.length,
    };
  });
  expect(hit.status).toBe('anchored');
  expect(hit.inShadow).toBe(true);
  expect(hit.keys).toEqual(['shadow-1']);
  // ::highlight() rules of the document do not reach into the shadow tree: the painter adopted them there.
  expect((hit as { styled?: number }).styled).toBe(1);
});
