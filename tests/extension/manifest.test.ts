// The extension's identity, manifest and text: the pinned id and OAuth redirect URLs derive from the
// key, permissions are the least the features need, every UI string is in messages.json, and the
// bundles never pull in the schema library.
import { createHash, createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROME_REDIRECT_URL, EXTENSION_ID, FIREFOX_ADDON_ID, FIREFOX_REDIRECT_URL } from '../../lib/api/extension-identity.js';
import { EXTENSION_PUBLIC_KEY } from '../../lib/extension-id.js';
import config from '../../wxt.config.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const messages = JSON.parse(fs.readFileSync(path.join(ROOT, 'public/_locales/en/messages.json'), 'utf8')) as Record<
  string,
  { message: string; placeholders?: Record<string, { content: string }> }
>;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(rel);
  }
  return out;
}

const EXTENSION_DIRS = ['entrypoints', 'components', 'lib/background', 'lib/messaging', 'lib/storage', 'lib/api/client'];
const extensionFiles = [...EXTENSION_DIRS.flatMap(sourceFiles), 'lib/i18n.ts', 'lib/model.ts', 'lib/extension-id.ts'];

function manifest(browser: 'chrome' | 'firefox') {
  const m = config.manifest as (env: { browser: string; manifestVersion: number; mode: string; command: string }) => Record<string, any>;
  return m({ browser, manifestVersion: 3, mode: 'production', command: 'build' });
}

describe('extension identity', () => {
  it('derives the pinned Chrome id and redirect URL from the manifest key', () => {
    const der = createPublicKey({ key: Buffer.from(EXTENSION_PUBLIC_KEY, 'base64'), format: 'der', type: 'spki' }).export({ format: 'der', type: 'spki' });
    const hex = createHash('sha256').update(der).digest('hex').slice(0, 32);
    const id = [...hex].map((h) => String.fromCharCode(97 + parseInt(h, 16))).join('');
    expect(id).toBe(EXTENSION_ID);
    expect(CHROME_REDIRECT_URL).toBe(`https://${id}.chromiumapp.org/oauth`);
    expect(manifest('chrome').key).toBe(EXTENSION_PUBLIC_KEY);
  });

  it('derives Firefox\'s identity.getRedirectURL from the add-on id', () => {
    const hash = createHash('sha1').update(FIREFOX_ADDON_ID).digest('hex');
    expect(FIREFOX_REDIRECT_URL).toBe(`https://${hash}.extensions.allizom.org/oauth`);
    expect(manifest('firefox').browser_specific_settings.gecko.id).toBe(FIREFOX_ADDON_ID);
    expect(manifest('firefox').key).toBeUndefined();
  });
});

describe('manifest', () => {
  it('asks at install only for what saving and the bookmark sync need; the rest is optional', () => {
    for (const browser of ['chrome', 'firefox'] as const) {
      const m = manifest(browser);
      expect(m.permissions.sort()).toEqual(['activeTab', 'alarms', 'bookmarks', 'contextMenus', 'identity', 'scripting', 'storage']);
      expect(m.host_permissions).toEqual(['http://localhost/*']);
      expect(m.optional_permissions).toEqual(['tabs']);
      expect(m.optional_host_permissions).toEqual(['http://*/*', 'https://*/*']);
      expect(Object.keys(m.commands)).toEqual(expect.arrayContaining(['save-page', '_execute_action']));
    }
  });
});

describe('UI text', () => {
  it('has every message the code and the manifest use, with matching placeholders', () => {
    const used = new Map<string, number>();
    for (const file of extensionFiles) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/\bt\('([A-Za-z]+)'((?:,[^)]*)?)\)/g)) {
        const args = m[2] ? m[2].split(',').length - 1 : 0;
        used.set(m[1], Math.max(used.get(m[1]) ?? 0, args));
      }
    }
    const manifestText = JSON.stringify(manifest('chrome')) + fs.readFileSync(path.join(ROOT, 'entrypoints/popup/index.html'), 'utf8');
    for (const m of manifestText.matchAll(/__MSG_([A-Za-z]+)__/g)) used.set(m[1], used.get(m[1]) ?? 0);
    expect(used.size).toBeGreaterThan(50);
    for (const [key, args] of used) {
      expect(messages[key], `messages.json lacks "${key}"`).toBeDefined();
      const placeholders = Object.keys(messages[key].placeholders ?? {}).length;
      expect(placeholders, `"${key}" is called with ${args} values`).toBe(args);
    }
  });
});

describe('bundle boundaries', () => {
  it('extension code imports lib/api types only with `import type`, never the schemas (TypeBox)', () => {
    const offenders: string[] = [];
    for (const file of extensionFiles) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm)) {
        const spec = m[1];
        if (spec.includes('@sinclair/typebox') || /api\/(schemas|links|types|index)(\.js)?$/.test(spec) || /\/api(\/index)?\.js$/.test(spec)) {
          offenders.push(`${file}: ${m[0]}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('only the background touches the API client, tokens and the credential store', () => {
    const offenders = extensionFiles.filter((file) => {
      if (file.startsWith('lib/background/') || file.startsWith('lib/api/client/') || file === 'lib/storage/items.ts') return false;
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      return /from '[^']*api\/client[^']*'/.test(text) || /credentialRecord|sessionTokenItem/.test(text);
    });
    expect(offenders).toEqual([]);
  });
});

describe('one URL normalisation', () => {
  it('is defined once, in lib/api/url.ts, and the extension uses that one', () => {
    const definitions: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        const rel = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(rel);
        else if (/\.tsx?$/.test(entry.name) && /(function|const)\s+normali[sz]eUrl\b/.test(fs.readFileSync(path.join(ROOT, rel), 'utf8'))) definitions.push(rel);
      }
    };
    for (const dir of ['lib', 'server', 'components', 'entrypoints']) walk(dir);
    expect(definitions).toEqual(['lib/api/url.ts']);
    const users = extensionFiles.filter((f) => /\bnormalizeUrl\(/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(users.length).toBeGreaterThan(2);
    for (const f of users) expect(fs.readFileSync(path.join(ROOT, f), 'utf8'), f).toMatch(/import \{[^}]*normalizeUrl[^}]*\} from '(\.\.\/)+(api|lib\/api)\/url\.js'/);
  });
});
