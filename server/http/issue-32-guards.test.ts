import { beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_RESOURCES } from '#core/permissions/permission-map.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { facilityAt } from '#server/test/test-server.ts';
import { analyticalMethodsDef } from '#core/entities/defs/cleaning.def.ts';
import { adminActor } from '#server/test/factories/admin.ts';
import { buildEntity } from '#server/test/factories/entities.ts';
import { declaredRoutes } from './route-guard.ts';

/*
 * Issue 32: the eight resources of the permission map that guarded nothing (32 actions) each
 * guard their feature now. Access is limited to authorised people (21 CFR 11.10(d), EU GMP
 * Annex 11 §12), so the test does not trust a table of guards written by hand: it calls every
 * guarded route of the eight features as a member without rights, and reads from each refusal's
 * AccessRefused audit row which resource and action guard it. Every one of the 32 actions must
 * guard some route; then a user holding only that one action passes that guard on each of them.
 */

/** The routes of the eight features, by their path (the API mappings answer in API plants). */
const FEATURES =
  /\/(mac-formulas|analytical-method\/:id\/residue-measure|worst-products|equipment-trains)\b/;
const API_FEATURES = /\/(api-productions|api-equipment|api-products)\b/;

const ISSUE_32 = [
  'MACFormula',
  'ResidueMeasure',
  'WorstProductOverride',
  'EquipmentWiseWorstProduct',
  'ApiEquipment',
  'ApiProduct',
  'ApiProduction',
  'EquipmentTrain',
] as const;

interface Guarded {
  method: string;
  path: string;
  body: unknown;
  resource: string;
  action: string;
}

const t = useFacilityTestServer();
const found: Guarded[] = [];
let facilities: { id: number; F: string; of: RegExp }[];

async function login(roleName: string, rights: Record<string, string[]>) {
  const user = await buildUser(t.server.db, {
    facilityIds: facilities.map((f) => f.id),
    roleName,
    permissions: permissionsWith(rights),
  });
  return { id: user.id, token: await t.server.login(user.username, user.password) };
}

/** The refusal a call left, if any (after the user's refusal `after`): what its guard checked. */
async function refusal(userId: number, after: number) {
  const [row] = await t.server.db.query<{ seq: number; domain: string; attempted: string }>(
    `select seq::int, domain, new_values->>'attempted' as attempted from audit_log
      where user_id = $1 and action = 'AccessRefused' and seq > $2 order by seq desc limit 1`,
    [userId, after],
  );
  return row;
}

beforeAll(async () => {
  // The finished-dose facility of the file and the seed's API plant: the API mappings answer
  // only in an API facility.
  const api = await facilityAt(t.server, 1);
  facilities = [
    { id: t.facilityId, F: t.F, of: FEATURES },
    { id: api.scope.facilityId, F: api.F, of: API_FEATURES },
  ];
  // What a method measures takes Add from the active, Delete back to it, Modify between two
  // measures: the route is called on a method of each kind with each change.
  const admin = await adminActor(t.server.db);
  const scope = { planId: t.planId, facilityId: t.facilityId };
  const method = async (name: string) =>
    (await buildEntity(t.server.db, scope, analyticalMethodsDef, { name, testType: 'TOC' }, admin))
      .id;
  const [active, toc] = await Promise.all([method('HPLC-G1'), method('TOC-G2')]);
  const residue = (id: number) => `${t.F}/analytical-method/${id}/residue-measure`;
  const { version } = (await t.call('GET', residue(toc))).body as { version: number };
  const set = await t.call('PUT', residue(toc), { residueMeasure: 'toc', version, reason: 'TOC' });
  expect(set.status).toBe(200);
  const residueCalls: [string, unknown][] = [
    [residue(active), { residueMeasure: 'toc' }],
    [residue(toc), { residueMeasure: 'active' }],
    [residue(toc), { residueMeasure: 'conductivity' }],
  ];
  const nobody = await login('No rights', {});
  const routes = declaredRoutes(t.server.app).filter(
    (r) =>
      r.by === 'guard' &&
      r.method !== 'HEAD' &&
      r.url.startsWith('/api/v2/plans/:plan/facilities/:facility/'),
  );
  let seen = 0;
  for (const facility of facilities)
    for (const route of routes.filter((r) => facility.of.test(r.url))) {
      const method = route.method.split(',')[0]!;
      const path =
        facility.F +
        route.url
          .slice('/api/v2/plans/:plan/facilities/:facility'.length)
          .replace(/:\w+/g, '1')
          .replace('*', 'x');
      // A write is tried as an edit and as a restore: a restore may be guarded by another action.
      const bodies =
        method === 'GET' || method === 'DELETE' ? [undefined] : [{}, { unArchive: true }];
      const calls: [string, unknown][] = route.url.endsWith('/residue-measure')
        ? method === 'GET'
          ? [[residue(active), undefined]]
          : residueCalls
        : bodies.map((body) => [path, body]);
      for (const [target, body] of calls) {
        const res = await t.call(method, target, body, nobody.token);
        const row = await refusal(nobody.id, seen);
        if (res.status !== 403 || !row) continue;
        seen = row.seq;
        if ((ISSUE_32 as readonly string[]).includes(row.domain))
          found.push({ method, path: target, body, resource: row.domain, action: row.attempted });
      }
    }
}, 600_000);

describe('the eight resources of issue 32 guard their features', () => {
  it('each of their 32 actions guards a route', () => {
    const actions = ISSUE_32.flatMap((resource) =>
      PERMISSION_RESOURCES[resource]!.map((action) => `${resource} ${action}`),
    );
    expect(actions).toHaveLength(32);
    const guarding = new Set(found.map((g) => `${g.resource} ${g.action}`));
    expect(actions.filter((a) => !guarding.has(a))).toEqual([]);
  });

  it('a user holding just that action passes its guard on every such route', async () => {
    const passed: string[] = [];
    const stopped: string[] = [];
    for (const resource of ISSUE_32)
      for (const action of PERMISSION_RESOURCES[resource]!) {
        const holder = await login(`Only ${resource} ${action}`, { [resource]: [action] });
        let seen = 0;
        for (const g of found.filter((f) => f.resource === resource && f.action === action)) {
          const res = await t.call(g.method, g.path, g.body, holder.token);
          const row = await refusal(holder.id, seen);
          if (row) seen = row.seq;
          const label = `${resource} ${action}: ${g.method} ${g.path} ${JSON.stringify(g.body)}`;
          // Past this guard the call may still lack another right, or fail on its made-up ids
          // and empty body: never with this action refused again, and never with a 5xx.
          const refusedAgain = row?.domain === resource && row.attempted === action;
          (refusedAgain ? stopped : passed).push(label);
          expect(res.status, `${label} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
        }
      }
    expect(stopped).toEqual([]);
    expect(passed.length).toBeGreaterThanOrEqual(32);
  }, 600_000);
});
