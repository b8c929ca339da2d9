// Makes the fake browser's i18n answer from the real _locales/en/messages.json.
import fs from 'node:fs';
import path from 'node:path';
import { fakeBrowser } from 'wxt/testing/fake-browser';

const file = path.resolve(import.meta.dirname, '../../../public/_locales/en/messages.json');
const messages = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;

export function useRealMessages(): void {
  (fakeBrowser.i18n as { getMessage: unknown }).getMessage = (name: string, subs?: string | string[]) => {
    const entry = messages[name];
    if (!entry) return '';
    const values = subs === undefined ? [] : Array.isArray(subs) ? subs : [subs];
    return entry.message.replace(/\$([A-Z]+)\$/g, (_m, ph: string) => {
      const content = entry.placeholders?.[ph.toLowerCase()]?.content ?? '';
      return content.replace(/\$(\d)/g, (_x, n: string) => values[Number(n) - 1] ?? '');
    });
  };
}
