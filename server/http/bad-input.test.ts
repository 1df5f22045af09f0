import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/test-server.ts';

/*
 * Throws generated bad input at every route of the OpenAPI document, signed in as the
 * administrator, and fails on any 5xx: ids beyond the integer range, NUL bytes, lone surrogates,
 * 1 MB strings, deeply nested bodies and wrong types, in path parameters, query and body.
 */

let server: TestServer;
let token: string;
let planId: number;
let facilityId: number;
beforeAll(async () => {
  server = await startTestServer();
  token = await server.login();
  const [f] = await server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id limit 1',
  );
  planId = f!.plan_id;
  facilityId = f!.id;
});
afterAll(async () => {
  await server?.close();
});

interface Operation {
  method: string;
  template: string;
  params: string[];
  query: string[];
  hasBody: boolean;
}

// Signing out would end the session the other requests use; it takes no input worth fuzzing.
const SKIPPED = new Set(['POST /api/v2/auth/logout']);

function operations(): Operation[] {
  type Parameter = { name: string; in: string };
  const doc = server.app.swagger() as {
    paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: unknown }>>;
  };
  const found: Operation[] = [];
  for (const [template, byMethod] of Object.entries(doc.paths)) {
    if (!template.startsWith('/api/v2/')) continue;
    for (const [method, operation] of Object.entries(byMethod)) {
      const name = `${method.toUpperCase()} ${template}`;
      if (SKIPPED.has(name) || method === 'head') continue;
      const parameters = operation.parameters ?? [];
      found.push({
        method: method.toUpperCase(),
        template,
        params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        hasBody: operation.requestBody !== undefined,
      });
    }
  }
  return found;
}

const MEGABYTE = 'x'.repeat(1024 * 1024);
function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
}
const DEEP = nested(2000);

const badId = fc.constantFrom(
  '2147483648',
  '9223372036854775808',
  '-1',
  '1e400',
  'abc',
  '%00',
  '0',
  '1.5',
);
const badText = fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfff', '', ' ', '%', '\u202e');
const badScalar = fc.oneof(
  badText,
  fc.constantFrom(2 ** 31, 2 ** 63, -1, 1e308, -0, 1.5, true, false, null, [], {}),
  fc.constantFrom<unknown>(['\u0000'], [2 ** 31], { id: 2 ** 31 }),
);
// Field names the API uses, so that wrong values reach the schemas and the services.
const FIELDS = [
  'name',
  'reason',
  'version',
  'id',
  'ids',
  'equipments',
  'residueType',
  'documentType',
  'roleIds',
  'data',
  'equipmentId',
  'email',
  'username',
  'password',
  'permissions',
  'unArchive',
  'archive',
  'allowedDomains',
  'externalId',
  'value',
  'unit',
  'pageNumber',
  'search',
  'facilityRoles',
];
const badBody = fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), badScalar, { maxKeys: 6 }) },
  { weight: 1, arbitrary: fc.constant<unknown>({ name: MEGABYTE, reason: MEGABYTE }) },
  { weight: 1, arbitrary: fc.constant<unknown>(DEEP) },
  { weight: 1, arbitrary: fc.constant<unknown>({ name: DEEP }) },
  { weight: 1, arbitrary: badScalar },
);
/** A lone surrogate has no UTF-8 form: send the bytes its CESU-8 form would have. */
function queryText(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}
const badQueryValue = fc.oneof(badId, badText.map(queryText), fc.constant(MEGABYTE.slice(0, 4000)));

/** Half the time a real id of the plan, so that bad queries and bodies get past the guards. */
function idFor(name: string): fc.Arbitrary<string> {
  const real = name === 'plan' ? planId : name === 'facility' ? facilityId : 1;
  return fc.oneof(badId, fc.constant(String(real)));
}

const RUNS_PER_ROUTE = 5;

describe('bad input never gets a 5xx', () => {
  it('on any route of the OpenAPI document', { timeout: 240_000 }, async () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(100);
    let sent = 0;
    const failures: string[] = [];
    const errors: string[] = [];
    for (const op of ops) {
      await fc
        .assert(
          fc.asyncProperty(
            fc.tuple(...op.params.map(idFor)),
            fc.dictionary(fc.constantFrom(...(op.query.length ? op.query : ['q'])), badQueryValue, {
              maxKeys: 3,
            }),
            badBody,
            async (ids, query, body) => {
              let path = op.template;
              op.params.forEach((name, i) => {
                path = path.replace(`{${name}}`, (ids as string[])[i]!);
              });
              const search = Object.entries(query)
                .map(([k, v]) => `${k}=${v}`)
                .join('&');
              const url = search ? `${path}?${search}` : path;
              const withBody = op.hasBody || op.method === 'POST' || op.method === 'PUT';
              sent += 1;
              const res = await server.request(op.method, url, {
                token,
                ...(withBody ? { body: JSON.stringify(body) } : {}),
              });
              if (res.status >= 500) {
                failures.push(`${op.method} ${url.slice(0, 200)} → ${res.status}`);
                return false;
              }
              return true;
            },
          ),
          { numRuns: RUNS_PER_ROUTE, seed: 20261123, endOnFailure: true },
        )
        .catch((error: unknown) => errors.push(String(error).slice(0, 600)));
    }
    console.log(`bad-input fuzz: ${sent} requests to ${ops.length} routes, ${failures.length} 5xx`);
    expect(failures).toEqual([]);
    expect(errors).toEqual([]);
  });
});
