// The one rule for what an email address is, for every place that accepts one: the API schema
// (PUT /user `email`), web sign-up and the account page. Pure: no DOM, no Node.

/** Local part of dot-separated atoms, `@`, a domain of dot-separated labels (letters, digits, inner hyphens) with at least one dot. */
export const EMAIL_ADDRESS_PATTERN =
  "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$";

export const EMAIL_MAX_LENGTH = 320;

const EMAIL_REGEXP = new RegExp(EMAIL_ADDRESS_PATTERN);

export function isEmailAddress(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_REGEXP.test(value);
}
