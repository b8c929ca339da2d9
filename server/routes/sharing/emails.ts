import { badRequest } from '../../errors.js';

// name@example.com: a dot-atom local part and a domain of at least two labels (ASCII; IDN in punycode).
const EMAIL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9-]{2,63}$/;

/**
 * The addresses of an invite, trimmed and with repeats (in any letter case) dropped. An address
 * that is not one is a 400 naming it.
 */
export function readEmails(list: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  list.forEach((raw, i) => {
    const email = raw.trim();
    const [local = ''] = email.split('@');
    if (!EMAIL.test(email) || local.length > 64 || email.length > 254) {
      throw badRequest(`body.emails.${i} ("${raw.slice(0, 80)}") is not an email address: write each as name@example.com.`);
    }
    const key = email.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    out.push(email);
  });
  return out;
}
