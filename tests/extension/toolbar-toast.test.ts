// @vitest-environment jsdom
// The highlighter's toast ("Highlight removed · Undo"): it goes after its time, but not while someone
// has moved focus onto it to press Undo; leaving it gives the full time again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
vi.mock('wxt/browser', () => import('./helpers/jsdom-browser.js'));

import { PageUi } from '../../lib/highlighter/ui/page-ui.js';
import { Toolbar } from '../../lib/highlighter/ui/toolbar.js';

const noop = () => undefined;

function setUp() {
  const ui = new PageUi(noop);
  const toolbar = new Toolbar(ui, { highlight: noop, recolor: noop, editNote: noop, copy: noop, remove: noop, undo: noop });
  const toast = () => ui.root.querySelector<HTMLElement>('.toast')!;
  const undoButton = () => toast().querySelector<HTMLButtonElement>('button')!;
  return { ui, toolbar, toast, undoButton };
}

describe('the toast with Undo', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    document.documentElement.querySelectorAll('tidemark-ui').forEach((e) => e.remove());
  });

  it('goes 6 s after it appears when nobody touches it', () => {
    const { toolbar, toast } = setUp();
    toolbar.notify('Highlight removed', true);
    expect(toast().hidden).toBe(false);
    vi.advanceTimersByTime(5900);
    expect(toast().hidden).toBe(false);
    vi.advanceTimersByTime(200);
    expect(toast().hidden).toBe(true);
  });

  it('stays while its Undo button has focus, and goes 6 s after focus leaves', () => {
    const { toolbar, toast, undoButton } = setUp();
    toolbar.notify('Highlight removed', true);
    vi.advanceTimersByTime(3000);
    undoButton().focus();
    expect((toast().getRootNode() as ShadowRoot).activeElement).toBe(undoButton());
    vi.advanceTimersByTime(20_000);
    expect(toast().hidden).toBe(false);
    undoButton().blur();
    vi.advanceTimersByTime(5900);
    expect(toast().hidden).toBe(false);
    vi.advanceTimersByTime(200);
    expect(toast().hidden).toBe(true);
  });

  it('a new message starts the time again; hiding it at once (Undo pressed) stops the timer', () => {
    const { toolbar, toast } = setUp();
    toolbar.notify('Highlight removed', true);
    vi.advanceTimersByTime(5000);
    toolbar.notify('Highlight restored');
    vi.advanceTimersByTime(5000);
    expect(toast().hidden).toBe(false);
    expect(toast().textContent).toBe('Highlight restored');
    toolbar.hideToast();
    expect(toast().hidden).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
