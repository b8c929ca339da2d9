// The web app's text: messages are looked up as Chrome's i18n.getMessage does (the extension and the
// web app show the same words from the same messages.json), and every key the web app's own files
// use exists there with the placeholders it is given.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageSource, type MessageEntry } from '../../lib/i18n-messages.js';
import { textFragment } from '../../lib/library/web-host.js';
import { addressOf } from '../../web/SaveForm.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const messages = JSON.parse(fs.readFileSync(path.join(ROOT, 'public/_locales/en/messages.json'), 'utf8')) as Record<string, MessageEntry>;

describe('messages without the extension', () => {
  const get = messageSource({
    named: { message: 'Moved $COUNT$ to “$WHERE$”', placeholders: { count: { content: '$1' }, where: { content: '$2' } } },
    positional: { message: 'Costs $$5, $1 left' },
    missing: { message: 'Hello $ONE$!', placeholders: { one: { content: '$1' } } },
  });

  it('fills named placeholders (any case) from the substitutions, as Chrome does', () => {
    expect(get('named', ['3', 'Reading'])).toBe('Moved 3 to “Reading”');
    expect(get('positional', ['2'])).toBe('Costs $5, 2 left');
    expect(get('missing', [])).toBe('Hello !');
    expect(get('unknown', [])).toBeUndefined();
    expect(get('toString', [])).toBeUndefined();
  });

  it('reads the real messages the way the library shows them', () => {
    const real = messageSource(messages);
    expect(real('libOfflineSince', ['10:42'])).toBe('Offline — showing what was loaded at 10:42');
    expect(real('webSavedIn', ['Reading / The coast'])).toBe('Saved in Reading / The coast.');
  });

  it('has every message the web app uses, with its placeholders', () => {
    const files = ['web/WebApp.tsx', 'web/SaveForm.tsx', 'web/main.tsx', 'web/sign-out.ts', 'lib/library/web-host.ts'];
    const used = new Map<string, number>();
    for (const file of files) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/\bt\('([A-Za-z]+)'((?:,[^)]*)?)\)/g)) used.set(m[1]!, m[2] ? m[2].split(',').length - 1 : 0);
    }
    expect(used.size).toBeGreaterThan(20);
    for (const [key, args] of used) {
      expect(messages[key], key).toBeDefined();
      expect(Object.keys(messages[key]!.placeholders ?? {}).length, key).toBe(args);
    }
  });
});

describe('save by address', () => {
  it('takes what a person types or pastes as an http(s) address, adding https:// when left out', () => {
    expect(addressOf('example.com/a b')).toBeNull();
    expect(addressOf('  example.com/tides ')).toBe('https://example.com/tides');
    expect(addressOf('http://127.0.0.1:8080/x')).toBe('http://127.0.0.1:8080/x');
    expect(addressOf('ftp://example.com/')).toBeNull();
    expect(addressOf('javascript:alert(1)')).toBeNull();
    expect(addressOf('tides')).toBeNull();
  });
});

describe('opening a highlight on its page', () => {
  it('names it with a text fragment: whole when short, by its first and last words when long', () => {
    expect(textFragment('the quiet ones')).toBe('the%20quiet%20ones');
    expect(textFragment('spring-tides, twice')).toBe('spring%2Dtides%2C%20twice');
    expect(textFragment('one two three four five six seven eight nine ten')).toBe('one%20two%20three%20four,seven%20eight%20nine%20ten');
  });
});
