import type { FastifyError, FastifyInstance } from 'fastify';

/** No api/v3 or bundle body nests anywhere near this deep. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether the JSON text opens more than `max` arrays or objects inside each other. One pass over
 * the characters, skipping strings, before anything parses it: a body like `[[[[…` 100,000 deep
 * parses, then overflows the stack of whatever walks it (a 500 for everyone who tried).
 */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Fastify's own JSON body parser (prototype-poisoning checks included) behind the depth check: 400 past it. */
export function limitJsonDepth(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonNestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      const error = new Error(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`) as FastifyError;
      error.statusCode = 400;
      done(error, undefined);
      return;
    }
    void parse(request, body as string, done);
  });
}
