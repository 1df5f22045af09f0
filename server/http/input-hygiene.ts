import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import { validationError } from '#core/errors/errors.ts';
import { propertyPath } from './error-handler.ts';

/** Deeper than any request of the API; a deeper body is an attack on the parsers behind it. */
export const MAX_BODY_DEPTH = 32;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

interface Problem {
  path: string;
  key: string;
  message: string;
}

/** A problem found below `key`: its path gains the key, built only when there is a problem. */
function under(key: string | number, found: Problem | undefined): Problem | undefined {
  return found && { ...found, path: `/${key}${found.path}` };
}

/**
 * The first string PostgreSQL cannot store as text (a NUL character) or that is not well-formed
 * UTF-16 (a lone surrogate), or the first place the body nests too deep. Keys are checked too.
 * Runs on every request, anonymous ones included, so it allocates nothing per value: a 9 MB
 * array walked with Object.entries and a path string per element held a sign-in request, and
 * every other request, for 3.4 s.
 */
function problemIn(value: unknown, depth: number): Problem | undefined {
  if (typeof value === 'string') {
    if (value.includes('\u0000'))
      return { path: '', key: 'nul', message: 'must not contain a NUL character' };
    if (!isWellFormed(value))
      return { path: '', key: 'encoding', message: 'must be valid Unicode text' };
    return undefined;
  }
  // A raw body (a workbook upload) is bytes, not text; walked as an object it would build an
  // entry for every byte.
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return undefined;
  if (depth > MAX_BODY_DEPTH) {
    return {
      path: '',
      key: 'depth',
      message: `must not nest deeper than ${MAX_BODY_DEPTH} levels`,
    };
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = problemIn(value[i], depth + 1);
      if (found) return under(i, found);
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const found = problemIn(key, depth + 1) ?? problemIn(record[key], depth + 1);
    if (found) return under(key, found);
  }
  return undefined;
}

const checkInput: preValidationHookHandler = async (request: FastifyRequest) => {
  for (const [part, value] of [
    ['params', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const problem = problemIn(value, 0);
    if (problem) {
      const property =
        part === 'body' ? propertyPath(problem.path) : propertyPath(problem.path, part);
      throw validationError([{ property, constraints: { [problem.key]: problem.message } }]);
    }
  }
};

/**
 * Every route refuses text the database cannot hold and bodies nested too deep with 422, before
 * its schema runs: one check instead of a refinement on every string field. It runs after the
 * route's guard (added after runGuardsBeforeValidation), so a stranger still gets 401 or 403.
 */
export function refuseUnstorableInput(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const earlier = route.preValidation;
    route.preValidation = [
      ...(earlier === undefined ? [] : Array.isArray(earlier) ? earlier : [earlier]),
      checkInput,
    ];
  });
}
