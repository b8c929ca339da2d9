import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../../lib/api/constants.js';
import { ApiError } from '../errors.js';

/**
 * How deep `text`, read as JSON, nests arrays and objects, stopping as soon as it passes `max`.
 * One pass over the characters, skipping string contents, before anything is built: a 10,000-deep
 * body costs no more than its length, and never reaches code that walks it recursively
 * (validation, fingerprints, serialisation).
 */
function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * Reads JSON bodies for every route (API, OAuth token endpoint): an empty body (clients send
 * DELETE with a JSON content type and nothing in it) is "no body"; invalid JSON and JSON nested
 * deeper than LIMITS.jsonDepthMax are a 400 envelope.
 */
export function installJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim();
    if (!text) return done(null, undefined);
    if (jsonDepthExceeds(text, LIMITS.jsonDepthMax)) {
      return done(new ApiError(400, `The request body nests arrays and objects more than ${LIMITS.jsonDepthMax} deep. Send a flatter body.`), undefined);
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new SyntaxError('The request body is not valid JSON.'), undefined);
    }
  });
}
