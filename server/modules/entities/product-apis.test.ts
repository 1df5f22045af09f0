import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';

/*
 * Two calls of the specification's catalogue: GET {F}/products/{id}/api (the actives of a
 * product, with their amounts) and GET {F}/archived/default_units (a default unit is never
 * archived: always none).
 */

const t = useFacilityTestServer();
let mac: MacFacility;

const tokenWith = async (rights: Record<string, string[]>) => {
  const user = await buildUser(t.server.db, {
    facilityIds: [t.facilityId],
    permissions: permissionsWith(rights),
  });
  return t.server.login(user.username, user.password);
};

beforeAll(async () => {
  mac = await buildMacFacility(t.server, t.facilityId);
});

describe('GET {F}/products/{id}/api', () => {
  it("lists the product's actives as their own reads give them, with the amount of each", async () => {
    const res = await t.call('GET', `${t.F}/products/${mac.products.C}/api`);
    expect(res.status).toBe(200);
    expect(res.body.apis).toHaveLength(1);
    const [gamma] = res.body.apis as TestBody[];
    const own = await t.call('GET', `${t.F}/apis/${gamma!.id}`);
    expect(gamma).toEqual({ ...own.body, amount: { value: 10, unit: 'mg' } });
    expect(gamma!.name).toBe('Gamma');
  });

  it('needs Product Get and API Get, and finds only products of the facility', async () => {
    const url = `${t.F}/products/${mac.products.C}/api`;
    const productOnly = await tokenWith({ Product: ['Get'] });
    const noApi = await t.call('GET', url, undefined, productOnly);
    expect(noApi.status).toBe(403);
    expect(noApi.body).toMatchObject({ errName: 'NotAllowed' });
    const apiOnly = await tokenWith({ API: ['Get'] });
    expect((await t.call('GET', url, undefined, apiOnly)).status).toBe(403);
    // Both refusals come from the route's guards, each audited with the right it lacked.
    const refused = await t.server.db.query<{ domain: string; attempted: string }>(
      `select domain, new_values->>'attempted' as attempted from audit_log
        where action = 'AccessRefused' and domain in ('API', 'Product') order by id`,
    );
    expect(refused.slice(-2)).toEqual([
      { domain: 'API', attempted: 'Get' },
      { domain: 'Product', attempted: 'Get' },
    ]);
    const both = await tokenWith({ Product: ['Get'], API: ['Get'] });
    expect((await t.call('GET', url, undefined, both)).status).toBe(200);
    expect((await t.call('GET', `${t.F}/products/999999/api`)).status).toBe(404);
  });
});

describe('GET {F}/archived/default_units', () => {
  it('is always empty, and needs DefaultUnit Get', async () => {
    const res = await t.call('GET', `${t.F}/archived/default_units`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    const none = await tokenWith({ Product: ['Get'] });
    expect((await t.call('GET', `${t.F}/archived/default_units`, undefined, none)).status).toBe(
      403,
    );
  });
});

describe('the two calls in the OpenAPI document', () => {
  it('documents each', async () => {
    const doc = await t.call('GET', '/api/docs/json');
    const paths = doc.body.paths as Record<string, Record<string, unknown>>;
    const F = '/api/v2/plans/{plan}/facilities/{facility}';
    expect(Object.keys(paths[`${F}/products/{id}/api`]!)).toEqual(['get']);
    expect(Object.keys(paths[`${F}/archived/default_units`]!)).toEqual(['get']);
  });
});
