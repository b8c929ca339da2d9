import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HIGHLIGHT_COLORS } from '../../lib/api/constants.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';

let s: TestServer;
const clock = new TestClock();
beforeAll(async () => {
  s = await startServer({ clock });
});
afterAll(async () => s.close());

const bookmark = (token: string, body: Record<string, unknown> = {}) =>
  s.createItem('/bookmark', token, { link: 'https://read.example/article', title: 'Article', ...body });

async function put(token: string, id: number, highlights: unknown[]) {
  clock.advance(1000);
  return s.api('PUT', `/bookmark/${id}`, { token, body: { highlights } });
}

/** Whether a search for `word` finds the bookmark (the word is only in its highlights). */
async function indexed(token: string, id: number, word: string): Promise<boolean> {
  const res = await s.api('GET', `/bookmarks/0?search=${encodeURIComponent(word)}`, { token });
  expect(res.status).toBe(200);
  return (res.body.items as { _id: number }[]).some((item) => item._id === id);
}

describe('PUT /bookmark/{id} with highlights', () => {
  it('adds a highlight without _id: 24-hex _id, default yellow, note empty, dates set, searchable', async () => {
    const u = await s.createUser();
    const b = await bookmark(u.token);
    const res = await put(u.token, b._id, [{ text: 'tidal range is large' }]);
    expect(res.status).toBe(200);
    expect(res.body.item.highlights).toHaveLength(1);
    const h = res.body.item.highlights[0];
    expect(h._id).toMatch(/^[0-9a-f]{24}$/);
    expect(h).toMatchObject({ text: 'tidal range is large', color: 'yellow', note: '' });
    expect(h.created).toBe(new Date(clock.now()).toISOString());
    expect(h.lastUpdate).toBe(h.created);
    expect(res.body.item.lastUpdate).toBe(h.created);
    expect(await indexed(u.token, b._id, 'tidal')).toBe(true);
    // GET returns the same highlight.
    const got = await s.api('GET', `/bookmark/${b._id}`, { token: u.token });
    expect(got.body.item.highlights).toEqual([h]);
  });

  it('accepts every one of the 12 colours and refuses others with a 400 listing them, adding nothing', async () => {
    const u = await s.createUser();
    const b = await bookmark(u.token);
    const res = await put(u.token, b._id, HIGHLIGHT_COLORS.map((color) => ({ text: `in ${color}`, color })));
    expect(res.status).toBe(200);
    expect(res.body.item.highlights.map((h: { color: string }) => h.color)).toEqual([...HIGHLIGHT_COLORS]);
    for (const color of ['magenta', 'Yellow', '#ff0', '']) {
      const bad = await put(u.token, b._id, [{ text: 'good' }, { text: 'x', color }]);
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toMatch(/highlights\.1\.color must be one of blue, brown, cyan, gray, green, indigo, orange, pink, purple, red, teal, yellow/);
    }
    const got = await s.api('GET', `/bookmark/${b._id}`, { token: u.token });
    expect(got.body.item.highlights).toHaveLength(12);
  });

  it('requires non-blank text to add', async () => {
    const u = await s.createUser();
    const b = await bookmark(u.token);
    for (const entry of [{ note: 'only a note' }, { text: '' }, { text: '   ' }]) {
      const res = await put(u.token, b._id, [entry]);
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toMatch(/highlights\.0\.text/);
    }
    expect((await s.api('GET', `/bookmark/${b._id}`, { token: u.token })).body.item.highlights).toEqual([]);
  });

  it('updates only the fields sent on an entry with _id', async () => {
    const u = await s.createUser();
    const b = await bookmark(u.token);
    const added = await put(u.token, b._id, [{ text: 'original', note: 'first note', color: 'green', position: 2, prefix: 'before ', suffix: ' after' }]);
    const h = added.body.item.highlights[0];
    const recolour = await put(u.token, b._id, [{ _id: h._id, color: 'purple' }]);
    expect(recolour.status).toBe(200);
    const h2 = recolour.body.item.highlights[0];
    expect(h2).toMatchObject({ _id: h._id, text: 'original', note: 'first note', color: 'purple', position: 2, prefix: 'before ', suffix: ' after' });
    expect(h2.created).toBe(h.created);
    expect(h2.lastUpdate).toBe(new Date(clock.now()).toISOString());
    const renote = await put(u.token, b._id, [{ _id: h._id, note: '' , text: 'changed text' }]);
    expect(renote.body.item.highlights[0]).toMatchObject({ text: 'changed text', note: '', color: 'purple' });
    expect(await indexed(u.token, b._id, 'changed')).toBe(true);
    expect(await indexed(u.token, b._id, 'original')).toBe(false);
  });

  it('removes an entry with _id and text ""', async () => {
    const u = await s.createUser();
    const b = await bookmark(u.token, { highlights: [{ text: 'keep me' }, { text: 'drop me' }] });
    const [keep, drop] = b.highlights;
    const res = await put(u.token, b._id, [{ _id: drop._id, text: '' }]);
    expect(res.status).toBe(200);
    expect(res.body.item.highlights.map((h: { _id: string }) => h._id)).toEqual([keep._id]);
    expect(await indexed(u.token, b._id, 'drop')).toBe(false);
    expect(await indexed(u.token, b._id, 'keep')).toBe(true);
  });

  it('does add, update and remove in one request, in one transaction', async () => {
    const u = await s.createUser();
    const b = await bookmark(u.token, { highlights: [{ text: 'one' }, { text: 'two' }] });
    const [one, two] = b.highlights;
    const res = await put(u.token, b._id, [
      { _id: one._id, text: '' },
      { _id: two._id, color: 'red' },
      { text: 'three', color: 'teal' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.item.highlights.map((h: { text: string; color: string }) => [h.text, h.color])).toEqual([
      ['two', 'red'],
      ['three', 'teal'],
    ]);
    // A later invalid entry undoes the earlier ones of the same request.
    const bad = await put(u.token, b._id, [{ _id: two._id, text: '' }, { text: 'four' }, { text: 'five', color: 'nope' }]);
    expect(bad.status).toBe(400);
    const after = await s.api('GET', `/bookmark/${b._id}`, { token: u.token });
    expect(after.body.item.highlights.map((h: { text: string }) => h.text)).toEqual(['two', 'three']);
  });

  it('answers 400 naming an unknown _id and writes nothing of the request', async () => {
    const u = await s.createUser();
    const b = await bookmark(u.token, { highlights: [{ text: 'mine' }] });
    const other = await bookmark(u.token, { link: 'https://other.example/', highlights: [{ text: 'other' }] });
    const foreignId = other.highlights[0]._id;
    const res = await put(u.token, b._id, [{ text: 'would be added' }, { _id: foreignId, color: 'red' }]);
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toContain(`highlights.1._id ${foreignId}`);
    const unknown = await put(u.token, b._id, [{ _id: 'aaaaaaaaaaaaaaaaaaaaaaaa', text: '' }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errorMessage).toContain('aaaaaaaaaaaaaaaaaaaaaaaa');
    const malformed = await put(u.token, b._id, [{ _id: 'xyz', text: 'a' }]);
    expect(malformed.status).toBe(400);
    expect(malformed.body.errorMessage).toMatch(/highlights\.0\._id/);
    const after = await s.api('GET', `/bookmark/${b._id}`, { token: u.token });
    expect(after.body.item.highlights.map((h: { text: string }) => h.text)).toEqual(['mine']);
    const otherAfter = await s.api('GET', `/bookmark/${other._id}`, { token: u.token });
    expect(otherAfter.body.item.highlights[0].color).toBe('yellow');
  });

  it('stores and returns position, prefix and suffix; validates position', async () => {
    const u = await s.createUser();
    const b = await bookmark(u.token);
    const res = await put(u.token, b._id, [
      { text: 'the tide', position: 3, prefix: 'and then came ', suffix: ' again, slowly' },
      { text: 'no context' },
    ]);
    const [withCtx, without] = res.body.item.highlights;
    expect(withCtx).toMatchObject({ position: 3, prefix: 'and then came ', suffix: ' again, slowly' });
    expect(without).not.toHaveProperty('position');
    expect(without).not.toHaveProperty('prefix');
    const got = await s.api('GET', `/bookmark/${b._id}`, { token: u.token });
    expect(got.body.item.highlights[0]).toMatchObject({ position: 3, prefix: 'and then came ', suffix: ' again, slowly' });
    for (const position of [-1, 1.5, '2']) {
      const bad = await put(u.token, b._id, [{ text: 'x', position }]);
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toMatch(/highlights\.0\.position/);
    }
    const moved = await put(u.token, b._id, [{ _id: withCtx._id, position: 0 }]);
    expect(moved.body.item.highlights[0]).toMatchObject({ position: 0, prefix: 'and then came ' });
  });

  it('keeps highlights in the order they were added', async () => {
    const u = await s.createUser();
    const b = await bookmark(u.token);
    const texts = Array.from({ length: 8 }, (_, i) => `quote ${i}`);
    await s.api('PUT', `/bookmark/${b._id}`, { token: u.token, body: { highlights: texts.map((text) => ({ text })) } });
    await put(u.token, b._id, [{ text: 'later' }]);
    const got = await s.api('GET', `/bookmark/${b._id}`, { token: u.token });
    expect(got.body.item.highlights.map((h: { text: string }) => h.text)).toEqual([...texts, 'later']);
  });

  it('does not let another user change highlights', async () => {
    const a = await s.createUser();
    const b = await s.createUser();
    const mark = await bookmark(a.token, { highlights: [{ text: 'private thought' }] });
    const res = await put(b.token, mark._id, [{ _id: mark.highlights[0]._id, text: '' }]);
    expect(res.status).toBe(403);
    const after = await s.api('GET', `/bookmark/${mark._id}`, { token: a.token });
    expect(after.body.item.highlights).toHaveLength(1);
  });
});
