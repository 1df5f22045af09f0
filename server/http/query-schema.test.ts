import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { featureOfPath, hasFeature } from '#core/facilities/facility-features.ts';
import { useFacilityTestServer } from '../test/facility-test-file.ts';
import { apiValidatorCompiler, UNKNOWN_QUERY_PARAMETER } from './query-schema.ts';

const t = useFacilityTestServer();

const JOB_ID = '00000000-0000-4000-8000-000000000000';
const FACILITY = '/api/v2/plans/{plan}/facilities/{facility}/';

/**
 * A route of a feature this (product, full) facility lacks is closed before its input is read:
 * intermediates, the API productions.
 */
function isClosedHere(template: string): boolean {
  if (!template.startsWith(FACILITY)) return false;
  const feature = featureOfPath(template.slice(FACILITY.length));
  return feature !== undefined && !hasFeature({ tier: 'full', productType: 'product' }, feature);
}

type Doc = { paths: Record<string, Record<string, { parameters?: { in: string }[] }>> };

async function apiOperations() {
  const doc = (await t.server.request<Doc>('GET', '/api/docs/json')).body;
  const found: { method: string; template: string; path: string }[] = [];
  for (const [template, byMethod] of Object.entries(doc.paths)) {
    if (!template.startsWith('/api/v2/')) continue;
    const path = template
      .replace('{plan}', String(t.planId))
      .replace('{facility}', String(t.facilityId))
      .replace('{provider}', 'okta')
      .replace('{target}', 'product')
      .replace(/\{(type|t)\}/, 'worst-case-ranking')
      .replace(/jobs\/\{id\}/, `jobs/${JOB_ID}`)
      .replace(/\{[^}]+\}/g, '1');
    for (const method of Object.keys(byMethod)) {
      if (method !== 'head') found.push({ method: method.toUpperCase(), template, path });
    }
  }
  return found;
}

const unknownEntry = (key: string) => ({
  property: key,
  constraints: { unknown: UNKNOWN_QUERY_PARAMETER },
});

describe('a query parameter no route declares is refused', () => {
  it('on every GET route of the OpenAPI document: 422 on the key, never a 5xx', async () => {
    const gets = (await apiOperations()).filter((op) => op.method === 'GET');
    expect(gets.length).toBeGreaterThan(200);
    const wrong: string[] = [];
    for (const { template, path } of gets) {
      const res = await t.server.request('GET', `${path}?notAParameter=1`, { token: t.token });
      const body = res.body as { errName?: string; errors?: unknown[] };
      if (isClosedHere(template)) {
        expect(res.status).toBe(403);
        continue;
      }
      const refused =
        res.status === 422 &&
        body.errName === 'DataValidationError' &&
        JSON.stringify(body.errors).includes(JSON.stringify(unknownEntry('notAParameter')));
      if (!refused) wrong.push(`GET ${template} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('on the other methods too: never answered as done, never a 5xx', async () => {
    const writes = (await apiOperations()).filter((op) => op.method !== 'GET');
    const wrong: string[] = [];
    for (const { method, template, path } of writes) {
      // Signing out would end the session the other requests use.
      if (template === '/api/v2/auth/logout') continue;
      const res = await t.server.request(method, `${path}?notAParameter=1`, {
        token: t.token,
        body: {},
      });
      if (res.status >= 500 || (res.status >= 200 && res.status < 300)) {
        wrong.push(`${method} ${template} → ${res.status}`);
      }
    }
    expect(writes.length).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });

  it('a route that answers a page declares its paging', async () => {
    type Operation = {
      parameters?: { in: string; name: string }[];
      responses?: Record<string, { content?: Record<string, { schema?: PageSchema }> }>;
    };
    type PageSchema = { properties?: Record<string, unknown> };
    const doc = (
      await t.server.request<{ paths: Record<string, Record<string, Operation>> }>(
        'GET',
        '/api/docs/json',
      )
    ).body;
    const undeclared: string[] = [];
    let pages = 0;
    for (const [template, byMethod] of Object.entries(doc.paths)) {
      const get = byMethod.get;
      const answer = get?.responses?.['200']?.content?.['application/json']?.schema;
      if (!get || !answer?.properties?.pageNumber || !answer.properties.total) continue;
      pages += 1;
      const query = new Set(
        (get.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      );
      // Custom report data pages by the spec’s `perPage` instead of `pageLimit`.
      const size = query.has('pageLimit') || query.has('perPage');
      if (!query.has('pageNumber') || !size) undeclared.push(template);
    }
    expect(pages).toBeGreaterThan(50);
    expect(undeclared).toEqual([]);
  });

  it('names every unknown key beside the problems of the declared ones', async () => {
    const res = await t.server.request(
      'GET',
      `/api/v2/users?pageNumber=0&pagenumber=2&colour=red`,
      {
        token: t.token,
      },
    );
    expect(res.status).toBe(422);
    const errors = (res.body as { errors: { property: string }[] }).errors;
    expect(errors).toEqual(
      expect.arrayContaining([unknownEntry('pagenumber'), unknownEntry('colour')]),
    );
    expect(errors.map((e) => e.property)).toContain('pageNumber');
    expect((res.body as { message: string }).message).toBe(
      `pagenumber: ${UNKNOWN_QUERY_PARAMETER} (and 2 more)`,
    );
  });

  it('takes the parameters a route declares', async () => {
    const page = await t.server.request('GET', '/api/v2/users?pageNumber=1&pageLimit=5&search=a', {
      token: t.token,
    });
    expect(page.status).toBe(200);
    const health = await t.server.request('GET', '/api/v2/health');
    expect(health.status).toBe(200);
    expect((await t.server.request('GET', '/api/v2/health?verbose=1')).status).toBe(422);
  });

  it('an OpenID callback keeps the parameters a provider sends (session_state, iss, errors)', async () => {
    // SSO is not configured here: the callback answers with its redirect, not a refusal of
    // the query, whatever the provider added.
    const answers: Record<string, string>[] = [
      { code: 'c', state: 's', session_state: 'x', iss: 'https://login.example.com' },
      { code: 'c', state: 's', client_info: 'e30', scope: 'openid' },
      {
        error: 'access_denied',
        error_description: 'The user cancelled',
        error_uri: 'https://login.example.com/help',
        state: 's',
      },
    ];
    for (const answer of answers) {
      const query = new URLSearchParams(answer);
      const res = await fetch(`${t.server.url}/api/v2/auth/sso/azure/verify?${query}`, {
        redirect: 'manual',
      });
      const isTaken = res.status !== 422 && res.status < 500;
      expect(isTaken, `${String(query)} → ${res.status}`).toBe(true);
    }
  });

  it('the docs UI is not part of the API and keeps its own parameters', async () => {
    const res = await t.server.request('GET', '/api/docs/json?anything=1');
    expect(res.status).toBe(200);
  });
});

describe('the keys a query schema declares', () => {
  const unknownKeys = (schema: z.ZodType, query: Record<string, string>) => {
    const validate = apiValidatorCompiler({
      schema,
      method: 'GET',
      url: '/api/v2/x',
      httpPart: 'querystring',
    });
    const result = validate(query) as { error?: { keyword: string; instancePath: string }[] };
    return (result.error ?? [])
      .filter((issue) => issue.keyword === 'unknown')
      .map((issue) => issue.instancePath.slice(1));
  };
  const a = z.object({ a: z.string().optional() });
  const b = z.object({ b: z.string().optional() });
  it.each([
    ['an object', a, { a: '1', c: '1' }, ['c']],
    ['a strict object', a.strict(), { a: '1' }, []],
    ['a loose object takes any key', z.looseObject({ a: z.string() }), { a: '1', c: '1' }, []],
    ['a union: the keys of either', z.union([a, b]), { a: '1', b: '1', c: '1' }, ['c']],
    ['an intersection: the keys of both', z.intersection(a, b), { b: '1', d: '1' }, ['d']],
    ['a transformed object', a.transform((q) => q.a), { a: '1', e: '1' }, ['e']],
    ['a refined object', a.refine(() => true), { f: '1' }, ['f']],
    ['an optional object', a.optional(), { g: '1' }, ['g']],
  ] as const)('%s', (_name, schema, query, expected) => {
    expect(unknownKeys(schema as z.ZodType, query)).toEqual(expected);
  });

  it('a schema that names no parameters cannot be a route’s query', () => {
    expect(() => unknownKeys(z.string(), {})).toThrow(/must be an object of named parameters/);
  });

  it('body, path and headers keep the schema’s own rules', () => {
    const validate = apiValidatorCompiler({
      schema: a,
      method: 'POST',
      url: '/x',
      httpPart: 'body',
    });
    expect(validate({ a: '1', c: '1' })).toEqual({ value: { a: '1' } });
  });
});
