import type { FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** What the message of a refused key says, on every route. */
export const UNKNOWN_QUERY_PARAMETER = 'Unknown query parameter';

// The mark fastify-type-provider-zod puts on its issues, so that the error handler maps these
// exactly as the schema's own issues (one DataValidationError, one entry per property).
const ZOD_ISSUE = Symbol.for('ZodFastifySchemaValidationError');

interface SchemaDef {
  type: string;
  shape?: Record<string, unknown>;
  catchall?: { _zod: { def: SchemaDef } };
  in?: { _zod: { def: SchemaDef } };
  innerType?: { _zod: { def: SchemaDef } };
  options?: { _zod: { def: SchemaDef } }[];
  left?: { _zod: { def: SchemaDef } };
  right?: { _zod: { def: SchemaDef } };
}

/**
 * The query keys a route's schema declares, or 'any' where it takes keys it does not name (a
 * `z.looseObject`). Zod's objects drop unknown keys without a word: a misspelt `asof` or a
 * parameter a view does not honour was answered as if it had not been sent, today's numbers
 * passing for the ones asked about.
 */
function declaredKeys(def: SchemaDef): Set<string> | 'any' {
  switch (def.type) {
    case 'object': {
      const catchall = def.catchall?._zod.def.type;
      if (catchall !== undefined && catchall !== 'never') return 'any';
      return new Set(Object.keys(def.shape ?? {}));
    }
    case 'pipe':
      return declaredKeys(def.in!._zod.def);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return declaredKeys(def.innerType!._zod.def);
    case 'union':
    case 'intersection': {
      const parts = def.type === 'union' ? def.options! : [def.left!, def.right!];
      const keys = new Set<string>();
      for (const part of parts) {
        const inner = declaredKeys(part._zod.def);
        if (inner === 'any') return 'any';
        for (const key of inner) keys.add(key);
      }
      return keys;
    }
    default:
      throw new Error(`A query schema must be an object of named parameters, not a ${def.type}`);
  }
}

type CompileArgs = Parameters<typeof validatorCompiler>[0];

/**
 * The one validator of every route (given to Fastify in app.ts). Query strings are checked as
 * their schemas say, and a key the route does not declare is refused with 422 on that key,
 * beside any other problem of the query: an API of record answers what was asked or says no.
 */
export function apiValidatorCompiler(args: CompileArgs): ReturnType<typeof validatorCompiler> {
  const validate = validatorCompiler(args);
  if (args.httpPart !== 'querystring') return validate;
  const keys = declaredKeys((args.schema as { _zod: { def: SchemaDef } })._zod.def);
  if (keys === 'any') return validate;
  return (data: unknown) => {
    const result = validate(data);
    const unknown = Object.keys((data ?? {}) as object).filter((key) => !keys.has(key));
    if (unknown.length === 0) return result;
    const issues = unknown.map((key) => ({
      [ZOD_ISSUE]: true,
      keyword: 'unknown',
      instancePath: `/${key}`,
      schemaPath: '#/unknown',
      message: UNKNOWN_QUERY_PARAMETER,
      params: {},
    }));
    const failed = typeof result === 'object' && 'error' in result ? result.error : undefined;
    const others = Array.isArray(failed) ? failed : [];
    return { error: [...issues, ...others] } as unknown as ReturnType<typeof validate>;
  };
}

const ZNoQuery = z.object({});

/**
 * A route of the API that declares no query schema takes no query parameters: it gets an empty
 * one, so any parameter sent to it is refused as above. Must be added before the routes are
 * registered. The docs UI (/api/docs) is not part of the API and keeps its own parameters.
 */
export function declareNoQueryByDefault(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/v2/')) return;
    if (route.schema?.querystring) return;
    route.schema = { ...route.schema, querystring: ZNoQuery };
  });
}
