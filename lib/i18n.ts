// UI text from _locales/<lang>/messages.json. Every string a person sees goes through here. In the
// extension the browser looks the messages up (browser.i18n); the web app, which has no extension
// API, sets its own source at start-up (`setMessageSource`, see lib/i18n-messages.ts).
import { browser } from '@wxt-dev/browser';

/** Looks a message up with its substitutions; '' or undefined when there is none. */
export type MessageSource = (key: string, substitutions: string[]) => string | undefined;

/** The web app's messages (`setMessageSource`); in the extension, the browser's. */
let source: MessageSource | undefined;

/** Texts without substitutions, once read (the language does not change while a page is open): a list of 50 rows asks for the same few many times. */
const plain = new Map<string, string>();

/** Where texts come from from now on (the web app's bundled messages). */
export function setMessageSource(next: MessageSource): void {
  source = next;
  plain.clear();
}

export function t(key: string, ...substitutions: (string | number)[]): string {
  if (substitutions.length === 0) {
    const known = plain.get(key);
    if (known !== undefined) return known;
  }
  const subs = substitutions.map(String);
  let text: string | undefined;
  try {
    // WXT types getMessage with the generated message names; keys here are checked by a unit test instead.
    text = source ? source(key, subs) : (browser.i18n.getMessage as (name: string, substitutions?: string[]) => string)(key, subs.length ? subs : undefined);
  } catch {
    /* no i18n in this context */
  }
  if (text) {
    if (subs.length === 0) plain.set(key, text);
    return text;
  }
  return key;
}
