import { expect } from 'vitest';
import { adminActor } from '#server/test/factories/admin.ts';
import { recordFactory } from '#server/test/factories/entities.ts';
import type { FacilityTestFile, TestBody as Body } from '#server/test/facility-test-file.ts';
import { putInForce } from '#server/test/policy-in-force.ts';
import { ADMIN } from '#server/test/test-server.ts';

/*
 * Test data of studies: a product on a line written through the app's write path, and protocols
 * created and put in force by signatures over HTTP, as a site does.
 */

let seq = 0;

export interface StudyKit {
  product: number;
  line: number;
  /** Creates a protocol (version 1 being built) and returns it. */
  protocol: (extra?: Record<string, unknown>) => Promise<Body>;
  /** Creates a protocol and approves it by signatures. */
  approvedProtocol: (extra?: Record<string, unknown>) => Promise<Body>;
  /** Starts a study of the protocol, expecting it to succeed. */
  study: (protocolId: number, extra?: Record<string, unknown>) => Promise<Body>;
  /** A limits snapshot row of the facility (as an approval would store one). */
  snapshot: () => Promise<number>;
}

export async function studyKit(t: FacilityTestFile): Promise<StudyKit> {
  // The master data is written by the administrator through the app's write path (factories).
  const scope = { planId: t.planId, facilityId: t.facilityId };
  const create = recordFactory(t.server.db, scope, await adminActor(t.server.db));
  const api = await create('apis', { name: 'Alpha', pde: { value: 0.001, unit: 'mg' } });
  const product = await create('products', {
    name: 'A',
    maxDailyDose: { value: 1000, unit: 'mg' },
    minBatchSize: { value: 100, unit: 'kg' },
    actives: [{ activeId: api, amount: { value: 10, unit: 'mg' } }],
  });
  const e1 = await create('equipments', { name: 'E1', surfaceArea: { value: 1, unit: 'sqm' } });
  const line = await create('productions', {
    name: 'Line 1',
    equipmentIds: [e1],
    productIds: [product],
  });
  const protocol = async (extra: Record<string, unknown> = {}) => {
    seq += 1;
    const res = await t.call('POST', `${t.F}/protocols`, {
      protocolNumber: `PR-${process.pid}-${seq}`,
      name: `Protocol ${seq}`,
      productionId: line,
      productIds: [product],
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result as Body;
  };
  return {
    product,
    line,
    protocol,
    approvedProtocol: async (extra = {}) => {
      const created = await protocol(extra);
      const editor = { token: t.token, password: ADMIN.password };
      await putInForce(t.server, t.F, editor, 'Protocol', created.id);
      return created;
    },
    study: async (protocolId, extra = {}) => {
      const res = await t.call('POST', `${t.F}/studies`, {
        title: 'Cleaning of Line 1',
        studyType: 'Validation',
        protocolId,
        ...extra,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as Body;
    },
    snapshot: async () => {
      const [row] = await t.server.db.query<{ id: number }>(
        `insert into limits_snapshots (facility_id, document_type, document_id, version_number,
           input, input_hash, output_hash)
         values ($1, 'CleaningLimitPolicy', 1, 1, '{}', 'x', 'y') returning id`,
        [t.facilityId],
      );
      return row!.id;
    },
  };
}
