// The one message protocol: the background answers only its own pages (and content scripts where a
// message allows it), only with well-formed payloads, and reports handler errors as data.
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { resetExtension } from './helpers/reset.js';
import { send } from '../../lib/messaging/client.js';
import type { MessageType } from '../../lib/messaging/protocol.js';
import { check } from '../../lib/messaging/check.js';
import { MESSAGES, TAB_COMMANDS } from '../../lib/messaging/schemas.js';
import * as lite from '../../lib/messaging/typebox-lite.js';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
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
    for (const [type, rule] of Object.entries(MESSAGES)) {
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
      ['addHighlight', { text: 'x', color: 'mauve' }, /data.color must be one of blue, .*yellow/],
      ['addHighlight', { color: 'red' }, /data.text is missing/],
      ['libraryBulk', { action: { kind: 'explode' }, targets: [] }, /data.action.kind must be one of move, tag/],
      ['libraryBulk', { action: { kind: 'move', to: 'x' }, targets: [] }, /data.action.to must be a whole number/],
      ['libraryCollectionOp', { op: 'sort', sort: 'random' }, /data.sort must be one of title, -title, -count/],
      ['createCollection', { title: 'T', parentId: 0 }, /data.parentId must be a whole number from 1 .*, or data.parentId must be empty/],
      ['libraryOpenHighlight', { link: 'file:///etc/passwd', highlightId: 'h' }, /data.link must start with http/],
    ];
    for (const [type, data, message] of cases) {
      const reply = await listen({ type, data }, MESSAGES[type].from.includes('page') ? popup : contentScript);
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

describe('the schemas', () => {
  /** Every keyword the schemas use, so one that check.ts does not read cannot slip in unnoticed. */
  function keywords(schema: unknown, into = new Set<string>()): Set<string> {
    if (!schema || typeof schema !== 'object') return into;
    for (const [k, v] of Object.entries(schema)) {
      into.add(k);
      if (k === 'properties') for (const s of Object.values(v as object)) keywords(s, into);
      if (k === 'items') keywords(v, into);
      if (k === 'anyOf') for (const s of v as unknown[]) keywords(s, into);
    }
    return into;
  }

  it('typebox-lite builds exactly the schemas TypeBox builds', () => {
    const mine = lite.Obj({
      a: lite.Optional(lite.Str({ minLength: 1, maxLength: 3 })),
      b: lite.Union([lite.Literal('x'), lite.Null()]),
      c: lite.List(lite.Integer({ minimum: 0, maximum: 9 }), { maxItems: 2 }),
      d: lite.Bool(),
      e: lite.Unsafe<`p${number}`>(lite.Str({ pattern: '^p\\d+$' })),
    });
    const typebox = Type.Object(
      {
        a: Type.Optional(Type.String({ minLength: 1, maxLength: 3 })),
        b: Type.Union([Type.Literal('x'), Type.Null()]),
        c: Type.Array(Type.Integer({ minimum: 0, maximum: 9 }), { maxItems: 2 }),
        d: Type.Boolean(),
        e: Type.Unsafe<`p${number}`>(Type.String({ pattern: '^p\\d+$' })),
      },
      { additionalProperties: false },
    );
    expect(mine).toStrictEqual(typebox);
    const symbols = (o: object) => Object.getOwnPropertySymbols(o).map((k) => [k.description, (o as Record<symbol, unknown>)[k]]);
    expect(symbols(mine)).toEqual(symbols(typebox));
    expect(symbols(mine.properties.a)).toEqual(symbols(typebox.properties.a));
    expect(lite.Obj({ only: lite.Optional(lite.Bool()) })).toStrictEqual(Type.Object({ only: Type.Optional(Type.Boolean()) }, { additionalProperties: false }));
  });

  it('the runtime check agrees with TypeBox\'s own Value.Check', () => {
    const samples: [keyof typeof MESSAGES, unknown][] = [
      ['popupOpened', { tabId: 12 }],
      ['popupOpened', { tabId: -1 }],
      ['popupOpened', { tabId: 1, extra: 2 }],
      ['updateBookmark', { ref: 'b:12', changes: { title: 'T', tags: ['a'] }, append: true }],
      ['updateBookmark', { ref: 'l:abc-1', changes: {} }],
      ['updateBookmark', { ref: 'b:0', changes: {} }],
      ['updateBookmark', { ref: 'b:1', changes: { tags: [''] } }],
      ['createCollection', { title: 'T', parentId: null }],
      ['createCollection', { title: 'T', parentId: 0 }],
      ['libraryBulk', { action: { kind: 'tag', tags: ['x'] }, targets: [{ id: 1, collectionId: -1, tags: [], important: false }] }],
      ['libraryBulk', { action: { kind: 'tag', tag: 'x' }, targets: [] }],
      ['libraryCollectionOp', { op: 'share', id: 3, emails: ['a@b.c'], role: 'viewer' }],
      ['libraryCollectionOp', { op: 'share', id: 3, emails: ['a@b.c'], role: 'owner' }],
      ['addHighlight', { text: 'x', color: 'teal', position: 3 }],
      ['addHighlight', { text: 'x', color: 'teal', position: 1.5 }],
      ['getStatus', null],
      ['getStatus', {}],
    ];
    for (const [type, data] of samples) {
      expect(check(MESSAGES[type].data, data, 'data') === null, `${type} ${JSON.stringify(data)}`).toBe(Value.Check(MESSAGES[type].data, data));
    }
  });

  it('use only keywords the runtime check reads', () => {
    const used = new Set<string>();
    for (const rule of Object.values(MESSAGES)) keywords(rule.data, used);
    for (const c of Object.values(TAB_COMMANDS)) keywords(c.data, keywords(c.result, used));
    const read = ['type', 'anyOf', 'const', 'enum', 'properties', 'required', 'additionalProperties', 'items', 'minItems', 'maxItems', 'minLength', 'maxLength', 'pattern', 'description', 'format', 'minimum', 'maximum'];
    expect([...used].filter((k) => !read.includes(k))).toEqual([]);
  });

  it('a page highlighter\'s answer to a command is checked: forged shapes are refused', () => {
    expect(check(TAB_COMMANDS.status.result, [{ key: 'h1', status: 'anchored', start: 12 }], 'answer')).toBeNull();
    expect(check(TAB_COMMANDS.status.result, [{ key: 'h1', status: 'anchored', start: 12, note: 'x' }], 'answer')).toMatch(/answer\[0\].note is not expected/);
    expect(check(TAB_COMMANDS.highlight.result, { ok: false, error: 'No text selected' }, 'answer')).toBeNull();
    expect(check(TAB_COMMANDS.highlight.result, { ok: 'yes' }, 'answer')).toMatch(/answer.ok must be one of true, false/);
    expect(check(TAB_COMMANDS.show.result, 'true', 'answer')).toMatch(/must be true or false/);
    expect(check(TAB_COMMANDS.refresh.result, true, 'answer')).toBeNull();
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
