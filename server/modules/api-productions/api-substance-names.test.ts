import { beforeAll, describe, expect, it } from 'vitest';
import { auditSubject } from '#core/audit/audit-format.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { buildActive, buildEquipment, recordFactory } from '#server/test/factories/entities.ts';
import { facilityAt } from '#server/test/test-server.ts';
import { auditNames } from '../audit/audit-names.ts';

/*
 * A substance mapped to an API step has no name of its own: it is called by its active's or
 * its intermediate's name (apiStepSubstancesDef.nameFrom), in where-used lists and the audit
 * trail, never 'API step substance 12' (issue 32; issue 30 for why never an id).
 */

const t = useFacilityTestServer();
let F: string;
let planId: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  const api = await facilityAt(t.server, 1);
  F = api.F;
  const scope = api.scope;
  planId = scope.planId;
  const record = recordFactory(t.server.db, scope);
  ids.api = (await buildActive(t.server.db, scope, { name: 'Metformin HCl' })).id;
  ids.adduct = await record('intermediates', { name: 'Cyanoguanidine adduct' });
  const reactor = (await buildEquipment(t.server.db, scope, { name: 'R-101 reactor' })).id;
  ids.route = await record('api-productions', { name: 'Metformin route', activeId: ids.api });
  ids.step = await record('api-equipment', {
    apiProductionId: ids.route,
    stepNumber: 1,
    name: 'Reaction',
    equipmentIds: [reactor],
  });
  const at = { apiProductionId: ids.route, stepId: ids.step };
  ids.apiAtStep = await record('api-products', { ...at, activeId: ids.api });
  ids.adductAtStep = await record('api-products', { ...at, intermediateId: ids.adduct });
});

async function usedBy(path: string, id: number) {
  const res = await t.call('GET', `${F}/${path}/${id}/where-used`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const group = (res.body.usedBy as TestBody[]).find((g) => g.entity === 'apiStepSubstances');
  return (group?.records as TestBody[]).map((r) => [r.id, r.name]);
}

describe('API step substances: named by their substance', () => {
  it('lists them by their active’s or intermediate’s name where they are used', async () => {
    expect(await usedBy('api-equipment', ids.step!)).toEqual([
      [ids.adductAtStep, 'Cyanoguanidine adduct'],
      [ids.apiAtStep, 'Metformin HCl'],
    ]);
    expect(await usedBy('apis', ids.api!)).toEqual([[ids.apiAtStep, 'Metformin HCl']]);
    expect(await usedBy('intermediates', ids.adduct!)).toEqual([
      [ids.adductAtStep, 'Cyanoguanidine adduct'],
    ]);
  });

  it('names them in the audit trail', async () => {
    const rows = [ids.apiAtStep!, ids.adductAtStep!].map((id) => ({
      domain: 'ApiProduct',
      entityId: String(id),
      oldValues: null,
      newValues: null,
    }));
    const names = await auditNames(t.server.db, planId, rows);
    expect(rows.map((row) => auditSubject(row, names))).toEqual([
      'API step substance ‘Metformin HCl’',
      'API step substance ‘Cyanoguanidine adduct’',
    ]);
  });
});
