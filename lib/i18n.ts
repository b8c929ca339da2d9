// UI text from _locales/<lang>/messages.json. Every string a person sees goes through here.
import { browser } from '@wxt-dev/browser';

/** Texts without substitutions, once read (the browser's language does not change while a page is open): a list of 50 rows asks for the same few many times. */
const plain = new Map<string, string>();

export function t(key: string, ...substitutions: (string | number)[]): string {
  if (substitutions.length === 0) {
    const known = plain.get(key);
    if (known !== undefined) return known;
  }
  const subs = substitutions.map(String);
  try {
    // WXT types getMessage with the generated message names; keys here are checked by a unit test instead.
    const getMessage = browser.i18n.getMessage as (name: string, substitutions?: string[]) => string;
    const text = getMessage(key, subs.length ? subs : undefined);
    if (text) {
      if (subs.length === 0) plain.set(key, text);
      return text;
    }
  } catch {
    /* no i18n in this context */
  }
  return key;
}
