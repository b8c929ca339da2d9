// UI text from _locales/<lang>/messages.json. Every string a person sees goes through here.
import { browser } from '@wxt-dev/browser';

export function t(key: string, ...substitutions: (string | number)[]): string {
  const subs = substitutions.map(String);
  try {
    // WXT types getMessage with the generated message names; keys here are checked by a unit test instead.
    const getMessage = browser.i18n.getMessage as (name: string, substitutions?: string[]) => string;
    const text = getMessage(key, subs.length ? subs : undefined);
    if (text) return text;
  } catch {
    /* no i18n in this context */
  }
  return key;
}
