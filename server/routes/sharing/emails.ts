import { isEmailAddress } from '../../../lib/api/email.js';
import { badRequest } from '../../errors.js';

/**
 * The addresses of an invite, trimmed and with repeats (in any letter case) dropped. An address
 * that is not one (by the rule sign-up uses, lib/api/email.ts) is a 400 naming it.
 */
export function readEmails(list: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  list.forEach((raw, i) => {
    const email = raw.trim();
    if (!isEmailAddress(email)) {
      throw badRequest(`body.emails.${i} ("${raw.slice(0, 80)}") is not an email address: write each as name@example.com.`);
    }
    const key = email.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    out.push(email);
  });
  return out;
}
