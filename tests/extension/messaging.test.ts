// The one message protocol: the background answers only its own pages (and content scripts where a
// message allows it), only with well-formed payloads, and reports handler errors as data.
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { resetExtension } from './helpers/reset.js';
import { send } from '../../lib/messaging/client.js';
import { RULES, type MessageType } from '../../lib/messaging/protocol.js';
import { classifySender, createMessageListener, UserFacingError, type Handlers } from '../../lib/messaging/router.js';

const SELF = { id: 'tidemark-id', baseUrl: 'chrome-extension://tidemark-id/' };
const popup = { id: 'tidemark-id', url: 'chrome-extension://tidemark-id/popup.html' };
const contentScript = { id: 'tidemark-id', url: 'https://news.example/story', tab: { id: 4 } as never, frameId: 0 };
const otherExtension = { id: 'someone-else', url: 'chrome-extension://someone-else/page.html' };
const webPage = { url: 'https://evil.example/' };

function listener(overrides: Partial<Handlers> = {}) {
  const calls: { type: string; data: unknown }[] = [];
  const handlers = new Proxy({} as Handlers, {
    get: (_t, type: string) =>
      (overrides as Record<string, unknown>)[type] ??
      ((data: unknown) => {
        calls.push({ type, data });
        return { handled: type };
      }),
  });
  const refused: string[] = [];
  return { listen: createMessageListener(handlers, () => SELF, (m) => refused.push(m)), calls, refused };
}

describe('classifySender', () => {
  it('tells the extension\'s pages, its content scripts and strangers apart', () => {
    expect(classifySender(popup, SELF)).toBe('page');
    expect(classifySender({ ...popup, url: 'chrome-extension://tidemark-id/options.html', tab: { id: 2 } as never }, SELF)).toBe('page');
    expect(classifySender(contentScript, SELF)).toBe('content');
    expect(classifySender(otherExtension, SELF)).toBeNull();
    expect(classifySender(webPage, SELF)).toBeNull();
    expect(classifySender({ id: 'tidemark-id', url: 'chrome-extension://tidemark-id.evil/' }, SELF)).toBeNull();
    expect(classifySender({ id: 'tidemark-id', url: 'chrome-extension://other/popup.html' }, SELF)).toBeNull();
  });
});

describe('createMessageListener', () => {
  it('runs the handler for a valid message from a page and answers {ok, value}', async () => {
    const { listen, calls } = listener();
    const reply = await listen({ type: 'popupOpened', data: { tabId: 12 } }, popup);
    expect(reply).toEqual({ ok: true, value: { handled: 'popupOpened' } });
    expect(calls).toEqual([{ type: 'popupOpened', data: { tabId: 12 } }]);
  });

  it('refuses page-only messages from content scripts, other extensions and web pages', async () => {
    const { listen, calls, refused } = listener();
    for (const sender of [contentScript, otherExtension, webPage]) {
      const reply = await listen({ type: 'signOut', data: null }, sender);
      expect(reply).toEqual({ ok: false, error: { kind: 'forbidden', message: 'The message "signOut" is not accepted from this sender.' } });
    }
    expect(calls).toEqual([]);
    expect(refused).toHaveLength(3);
  });

  it('no message hands tokens or sign-in to content scripts', () => {
    for (const [type, rule] of Object.entries(RULES)) {
      if (['signIn', 'useTestToken', 'signOut', 'getStatus'].includes(type)) expect(rule.from, type).toEqual(['page']);
    }
  });

  it('refuses malformed payloads, naming the field', async () => {
    const { listen, calls } = listener();
    const cases: [MessageType, unknown, RegExp][] = [
      ['popupOpened', { tabId: 'x' }, /data.tabId must be a whole number/],
      ['popupOpened', { tabId: 1, extra: true }, /data.extra is not expected/],
      ['updateBookmark', { ref: 'b:1', changes: { tags: ['ok', 5] } }, /data.changes.tags\[1\]/],
      ['updateBookmark', { ref: 'javascript:alert(1)', changes: {} }, /data.ref must be a bookmark reference/],
      ['updateBookmark', { ref: 'b:1', changes: { collectionId: 1, user: 5 } }, /data.changes.user is not expected/],
      ['signIn', { serverUrl: 'javascript:alert(1)' }, /must start with http/],
      ['useTestToken', { serverUrl: 'http://localhost:8787', token: '' }, /data.token must be text/],
      ['createCollection', { title: '', parentId: null }, /data.title/],
      ['getStatus', { anything: 1 }, /data must be empty/],
    ];
    for (const [type, data, message] of cases) {
      const reply = await listen({ type, data }, popup);
      expect(reply, `${type} ${JSON.stringify(data)}`).toMatchObject({ ok: false, error: { kind: 'invalid', message: expect.stringMatching(message) } });
    }
    expect(calls).toEqual([]);
  });

  it('ignores what is not a protocol message (so other listeners may answer)', () => {
    const { listen } = listener();
    expect(listen({ event: 'queueChanged', data: {} }, popup)).toBeUndefined();
    expect(listen({ type: 'noSuchMessage', data: null }, popup)).toBeUndefined();
    expect(listen('hello', popup)).toBeUndefined();
  });

  it('turns a handler\'s error into an answer with its message and kind', async () => {
    const { listen } = listener({
      removeBookmark: () => {
        throw new UserFacingError('The bookmark is gone.', 'server');
      },
    });
    expect(await listen({ type: 'removeBookmark', data: { ref: 'b:3' } }, popup)).toEqual({ ok: false, error: { message: 'The bookmark is gone.', kind: 'server' } });
  });
});

describe('send (pages)', () => {
  it('round-trips through runtime messaging to the listener and unwraps the answer or throws its error', async () => {
    resetExtension();
    const { listen } = listener({
      getQueue: () => ({ entries: [], failures: [], otherAccounts: 0 }),
      signOut: () => {
        throw new UserFacingError('Nope', 'x');
      },
    });
    fakeBrowser.runtime.onMessage.addListener((msg: unknown) => listen(msg, popup) as never);
    expect(await send('getQueue', null)).toEqual({ entries: [], failures: [], otherAccounts: 0 });
    await expect(send('signOut', null)).rejects.toMatchObject({ message: 'Nope', kind: 'x' });
  });
});
