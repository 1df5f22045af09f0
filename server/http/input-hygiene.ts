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

/**
 * The first string PostgreSQL cannot store as text (a NUL character) or that is not well-formed
 * UTF-16 (a lone surrogate), or the first place the body nests too deep. Keys are checked too.
 */
function problemIn(value: unknown, path: string, depth: number): Problem | undefined {
  if (typeof value === 'string') {
    if (value.includes('\u0000'))
      return { path, key: 'nul', message: 'must not contain a NUL character' };
    if (!isWellFormed(value))
      return { path, key: 'encoding', message: 'must be valid Unicode text' };
    return undefined;
  }
  // A raw body (a workbook upload) is bytes, not text; walked as an object it would build an
  // entry for every byte: 50 MiB of body, hundreds of millions of objects.
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return undefined;
  if (depth > MAX_BODY_DEPTH) {
    return { path, key: 'depth', message: `must not nest deeper than ${MAX_BODY_DEPTH} levels` };
  }
  for (const [key, inner] of Object.entries(value)) {
    const keyProblem = problemIn(key, `${path}/${key}`, depth + 1);
    if (keyProblem) return keyProblem;
    const found = problemIn(inner, `${path}/${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

const checkInput: preValidationHookHandler = async (request: FastifyRequest) => {
  for (const [part, value] of [
    ['params', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const problem = problemIn(value, '', 0);
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
