// @vitest-environment jsdom
// The popup's form controls in a DOM: accessible names, keyboard use of the tag chips, filtering and
// creating collections, debounced autosave, and page/server text shown as text (never as HTML).
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('wxt/browser', () => import('./helpers/jsdom-browser.js'));

import { AutoSaver, type SaveState } from '../../components/shared/autosave.js';
import { CollectionPicker } from '../../components/shared/CollectionPicker.js';
import { TagsInput } from '../../components/shared/TagsInput.js';
import type { CollectionOption } from '../../lib/model.js';
import { useRealMessages } from './helpers/messages.js';

let root: HTMLElement;
beforeEach(() => {
  useRealMessages();
  root = document.createElement('div');
  document.body.append(root);
});
afterEach(() => {
  render(null, root);
  root.remove();
});

const byLabel = (label: string) => {
  const el = [...root.querySelectorAll('label')].find((l) => l.textContent === label);
  return root.querySelector<HTMLInputElement>(`#${el!.htmlFor}`)!;
};
const key = (el: Element, k: string) => act(() => void el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true })));
const type = (el: HTMLInputElement, text: string) =>
  act(() => {
    el.value = text;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
const options = () => [...root.querySelectorAll('[role="option"]')].map((o) => o.textContent);

describe('TagsInput', () => {
  function mount(value: string[], known = [{ _id: 'ocean', count: 3 }, { _id: 'oceans', count: 9 }, { _id: 'moon', count: 1 }], suggested: string[] = []) {
    const changes: string[][] = [];
    const draw = (v: string[]) =>
      render(
        h(TagsInput, {
          value: v,
          known,
          suggested,
          onChange: (t: string[]) => {
            changes.push(t);
            draw(t);
          },
        }),
        root,
      );
    void act(() => draw(value));
    return changes;
  }

  it('is labelled "Tags", autocompletes from the user\'s tags with counts, and adds on Enter', async () => {
    const changes = mount(['sea']);
    const input = byLabel('Tags');
    expect(input.getAttribute('role')).toBe('combobox');
    await type(input, 'oce');
    expect(options()).toEqual(['oceans (9)', 'ocean (3)']);
    await key(input, 'ArrowDown');
    await key(input, 'Enter');
    expect(changes.at(-1)).toEqual(['sea', 'oceans']);
    await type(input, 'brand new');
    await key(input, 'Enter');
    expect(changes.at(-1)).toEqual(['sea', 'oceans', 'brand new']);
  });

  it('removes chips from the keyboard: Backspace in the empty field, Delete on a chip', async () => {
    const changes = mount(['one', 'two', 'three']);
    await key(byLabel('Tags'), 'Backspace');
    expect(changes.at(-1)).toEqual(['one', 'two']);
    const remove = root.querySelector<HTMLButtonElement>('button[aria-label="Remove tag one"]')!;
    await key(remove, 'Delete');
    expect(changes.at(-1)).toEqual(['two']);
  });

  it('offers suggested tags not yet on the bookmark', async () => {
    const changes = mount(['sea'], [], ['sea', 'tides']);
    const add = root.querySelector<HTMLButtonElement>('button[aria-label="Add suggested tag tides"]')!;
    expect(root.querySelector('button[aria-label="Add suggested tag sea"]')).toBeNull();
    await act(() => add.click());
    expect(changes.at(-1)).toEqual(['sea', 'tides']);
  });

  it('shows a tag that looks like HTML as text', () => {
    mount(['<img src=x onerror="window.hacked=1">']);
    expect(root.querySelector('img')).toBeNull();
    expect(root.textContent).toContain('<img src=x onerror="window.hacked=1">');
  });
});

describe('CollectionPicker', () => {
  const items: CollectionOption[] = [
    { id: -1, title: 'Unsorted', path: ['Unsorted'], parentId: null, count: 0 },
    { id: 1, title: 'Work', path: ['Work'], parentId: null, count: 2 },
    { id: 2, title: 'Reading', path: ['Work', 'Reading'], parentId: 1, count: 5 },
    { id: 3, title: 'Recipes', path: ['Recipes'], parentId: null, count: 1 },
  ];

  function mount(value = -1, recent: number[] = [3]) {
    const picked: number[] = [];
    const created: [string, number | null][] = [];
    void act(() =>
      render(
        h(CollectionPicker, {
          items,
          recent,
          value,
          onChange: (id: number) => picked.push(id),
          onCreate: async (title: string, parentId: number | null) => {
            created.push([title, parentId]);
            return { id: 99, title, path: [title], parentId, count: 0 };
          },
        }),
        root,
      ),
    );
    return { picked, created };
  }

  it('is labelled "Collection", shows the current path, and lists recently used first then every full path', async () => {
    mount(2);
    const input = byLabel('Collection');
    expect(input.value).toBe('Work / Reading');
    await act(() => input.focus());
    await act(() => input.click());
    expect(options()).toEqual(['Recent: Recipes', 'Unsorted', 'Work', 'Work / Reading', 'Recipes']);
  });

  it('filters as you type on the whole path, and picks with the keyboard', async () => {
    const { picked } = mount();
    const input = byLabel('Collection');
    await type(input, 'work read');
    expect(options()).toEqual(['Work / Reading', 'Create collection “work read”']);
    await key(input, 'Enter');
    expect(picked).toEqual([2]);
  });

  it('creates a new collection, nested under an existing one with "Parent / Name"', async () => {
    const { picked, created } = mount();
    const input = byLabel('Collection');
    await type(input, 'Work / Ideas');
    expect(options()).toEqual(['Create collection “Work / Ideas”']);
    await act(async () => (root.querySelector('[role="option"]') as HTMLElement).click());
    expect(created).toEqual([['Ideas', 1]]);
    expect(picked).toEqual([99]);
    await type(input, 'Nope / Child');
    expect(options()).not.toContain('Create collection “Nope / Child”'); // no such parent
  });
});

describe('AutoSaver', () => {
  it('waits for typing to pause, sends one update with all the changes, and reports the states', async () => {
    vi.useFakeTimers();
    const sent: object[] = [];
    const states: SaveState[] = [];
    let online = true;
    const saver = new AutoSaver(
      async (changes) => {
        sent.push(changes);
        return { state: online ? 'saved' : 'queued', bookmark: null };
      },
      (s) => states.push(s),
      500,
    );
    saver.change({ note: 'a' });
    saver.change({ note: 'ab' });
    saver.change({ title: 'T' });
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(500);
    expect(sent).toEqual([{ note: 'ab', title: 'T' }]);
    expect(states.at(-1)).toBe('saved');
    online = false;
    saver.change({ important: true }, true);
    await saver.flush();
    expect(sent.at(-1)).toEqual({ important: true });
    expect(states.at(-1)).toBe('queued');
    saver.change({ note: 'closing' });
    await saver.flush(); // the popup closes: nothing is lost
    expect(sent.at(-1)).toEqual({ note: 'closing' });
    vi.useRealTimers();
  });

  it('reports a refused save with its message', async () => {
    const states: [SaveState, string | undefined][] = [];
    const saver = new AutoSaver(async () => {
      throw new Error('Not found');
    }, (s, e) => states.push([s, e]));
    saver.change({ note: 'x' }, true);
    await saver.flush();
    expect(states.at(-1)).toEqual(['error', 'Not found']);
  });
});
