import { describe, expect, it } from 'vitest';
import type { Actor } from '#server/db/audit-write.ts';
import { testActor } from '../factories.ts';
import { ADMIN } from '../test-server.ts';
import { useFacilityTestServer, type TestBody } from '../facility-test-file.ts';
import {
  buildActive,
  buildEquipment,
  buildProduct,
  buildProduction,
  type FactoryScope,
} from './entities.ts';
import { actorFor, buildSignedRecord, buildSigners } from './signed-record.ts';
import { buildApprovedProtocol, buildRun, buildStudy } from './verification.ts';

/*
 * Each factory's record reads back through the API as one the API created: the same fields with
 * the same values (all but its id, name, number and times), version 1, and its Create audit row
 * with the same fields.
 */

const t = useFacilityTestServer();
const scope = (): FactoryScope => ({ planId: t.planId, facilityId: t.facilityId });

/** The fields two records of the same input share: all but what is each one's own. */
const shared = (record: TestBody, own: string[]) =>
  Object.fromEntries(Object.entries(record).filter(([key]) => !own.includes(key)));
const OWN = ['id', 'name', 'createdAt', 'updatedAt'];

async function read(path: string): Promise<TestBody> {
  const res = await t.call('GET', `${t.F}/${path}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function created(path: string, body: unknown): Promise<TestBody> {
  const res = await t.call('POST', `${t.F}/${path}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** The administrator who signs in to the test server, as the author of audit rows. */
async function adminActor(): Promise<Actor> {
  const [admin] = await t.server.db.query<{ id: number; name: string }>(
    `select id, first_name || ' ' || last_name as name from users where email = $1`,
    [ADMIN.email],
  );
  return { ...testActor, userId: admin!.id, userName: admin!.name };
}

/** The record's Create audit row: its fields, and that it is the only row of the record yet. */
async function createAudit(domain: string, id: number) {
  const rows = await t.server.db.query<{ action: string; new_values: Record<string, unknown> }>(
    `select action, new_values from audit_log
      where domain = $1 and facility_id = $2 and entity_id = $3 order by id`,
    [domain, t.facilityId, String(id)],
  );
  expect(rows.map((r) => r.action)).toEqual(['Create']);
  return Object.keys(rows[0]!.new_values).sort();
}

/** Builds by the factory and by the API, then compares them as the API reads them. */
async function sameAsApi(
  path: string,
  domain: string,
  built: { id: number },
  body: Record<string, unknown>,
) {
  const byApi = (await created(path, body)).result as TestBody;
  const [fromFactory, fromApi] = [
    await read(`${path}/${built.id}`),
    await read(`${path}/${byApi.id}`),
  ];
  expect(fromFactory.version).toBe(1);
  expect(shared(fromFactory, OWN)).toEqual(shared(fromApi, OWN));
  expect(await createAudit(domain, built.id)).toEqual(await createAudit(domain, byApi.id));
}

describe('master data factories', () => {
  it('buildActive writes an active as POST apis does', async () => {
    const fields = { pde: { value: 5, unit: 'ug' }, therapeuticDose: { value: 1, unit: 'mg' } };
    const active = await buildActive(t.server.db, scope(), fields);
    expect(active.name).toMatch(/^Active /);
    await sameAsApi('apis', 'API', active, { name: 'Api-made active', ...fields });
  });

  it('buildProduct writes a product with its actives as POST products does', async () => {
    const active = await buildActive(t.server.db, scope());
    const actives = [{ activeId: active.id, amount: { value: 20, unit: 'mg' } }];
    const product = await buildProduct(t.server.db, scope(), { actives, dosageForm: 'Tablet' });
    await sameAsApi('products', 'Product', product, {
      name: 'Api-made product',
      maxDailyDose: { value: 1000, unit: 'mg' },
      minBatchSize: { value: 100, unit: 'kg' },
      dosageForm: 'Tablet',
      actives,
    });
    // Without actives it builds one of its own for the product.
    const alone = await buildProduct(t.server.db, scope());
    expect((await read(`products/${alone.id}`)).actives).toEqual([
      { activeId: expect.any(Number), amount: { value: 10, unit: 'mg' } },
    ]);
  });

  it('buildEquipment and buildProduction write as POST equipments and productions do', async () => {
    const equipment = await buildEquipment(t.server.db, scope(), {
      material: 'Stainless steel 316L',
    });
    await sameAsApi('equipments', 'Equipment', equipment, {
      name: 'Api-made vessel',
      surfaceArea: { value: 1, unit: 'sqm' },
      material: 'Stainless steel 316L',
    });
    const product = await buildProduct(t.server.db, scope());
    const links = { equipmentIds: [equipment.id], productIds: [product.id] };
    const line = await buildProduction(t.server.db, scope(), links);
    await sameAsApi('productions', 'Production', line, { name: 'Api-made line', ...links });
  });
});

describe('verification factories', () => {
  it('buildStudy and buildRun write as POST studies and studies/{id}/runs do', async () => {
    const product = await buildProduct(t.server.db, scope());
    const protocol = await buildApprovedProtocol(t.server, scope(), { productIds: [product.id] });
    // By the administrator, as the API's study is: the author is read back as a name.
    const admin = await adminActor();
    const study = await buildStudy(t.server, scope(), { protocolId: protocol.id }, admin);
    const byApi = await created('studies', {
      title: 'Api-made study',
      studyType: 'Validation',
      protocolId: protocol.id,
    });
    const own = [...OWN, 'number', 'title', 'runs'];
    const [fromFactory, fromApi] = [
      await read(`studies/${study.id}`),
      await read(`studies/${byApi.id}`),
    ];
    expect(fromFactory.controlled.version).toBe(1);
    expect(shared(fromFactory, own)).toEqual(shared(fromApi, own));
    expect(await createAudit('Study', study.id)).toEqual(await createAudit('Study', byApi.id));

    const built = await buildRun(t.server, scope(), study.id, { actor: admin });
    const apiRun = (await created(`studies/${study.id}/runs`, {})).run as TestBody;
    const runOwn = [...OWN, 'sequence', 'label', 'title', 'number'];
    const [runA, runB] = [
      (await read(`runs/${built.id}`)).run,
      (await read(`runs/${apiRun.id}`)).run,
    ];
    expect(runA.version).toBe(1);
    expect([runA.sequence, runB.sequence]).toEqual([1, 2]);
    expect(shared(runA, runOwn)).toEqual(shared(runB, runOwn));
    expect(await createAudit('Run', built.id)).toEqual(await createAudit('Run', apiRun.id));
  });

  it('buildRun takes a run through its event, inspection and signatures to Completed', async () => {
    const study = await buildStudy(t.server, scope());
    const { submitter, approver } = await buildSigners(t.server.db, t.facilityId);
    const built = await buildRun(t.server, scope(), study.id, {
      actor: actorFor(submitter),
      event: { startedAt: '2026-11-01T08:00:00Z' },
      inspection: {},
      signers: { submitter, approver },
    });
    const run = (await read(`runs/${built.id}`)).run as TestBody;
    expect(run).toMatchObject({
      status: 'Completed',
      event: { startedAt: '2026-11-01T08:00:00.000Z' },
    });
    expect(run.inspection.record.result).toBe('Pass');
    const signatures = (await read(`signatures?documentType=Run&documentId=${built.id}`))
      .signatures as TestBody[];
    expect(signatures.map((s) => [s.action, s.userId, s.valid])).toEqual([
      ['Submit', submitter.id, true],
      ['Approve', approver.id, true],
    ]);
    const rows = await t.server.db.query<{ action: string }>(
      `select action from audit_log where domain = 'Run' and entity_id = $1 order by id`,
      [String(built.id)],
    );
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['Create', 'Update']));
  });

  it('buildStudy without a protocol builds one and puts it in force by signatures', async () => {
    const study = await buildStudy(t.server, scope(), { studyType: 'Verification' });
    const read1 = await read(`studies/${study.id}`);
    expect(read1).toMatchObject({ studyType: 'Verification', protocolVersionNumber: 1 });
  });
});

describe('buildSignedRecord', () => {
  it('approves a record with two valid signatures, as signing over the API does', async () => {
    const { submitter, approver } = await buildSigners(t.server.db, t.facilityId);
    const built = await buildSignedRecord(t.server, scope());
    expect(built.approval.document.status).toBe('Approved');

    // The same by HTTP: the same signers sign an SOP the submitter wrote.
    const asSubmitter = await t.server.login(submitter.username, submitter.password);
    const asApprover = await t.server.login(approver.username, approver.password);
    const sop = await t.call(
      'POST',
      `${t.F}/sop`,
      { sopNumber: 'SOP-API', name: 'By API' },
      asSubmitter,
    );
    expect(sop.status).toBe(200);
    const sopId = sop.body.result.id as number;
    for (const [action, as, person] of [
      ['Submit', asSubmitter, submitter],
      ['Approve', asApprover, approver],
    ] as const) {
      const body = { documentType: 'SOP', documentId: sopId, action, password: person.password };
      expect((await t.call('POST', `${t.F}/signatures`, body, as)).status).toBe(200);
    }

    const own = [...OWN, 'sopNumber'];
    const [fromFactory, fromApi] = [
      await read(`sop/${built.documentId}`),
      await read(`sop/${sopId}`),
    ];
    expect(fromFactory).toMatchObject({ status: 'Approved', versionNumber: 1, version: 1 });
    expect(shared(fromFactory, own)).toEqual(shared(fromApi, own));
    const signatures = async (id: number) =>
      ((await read(`signatures?documentType=SOP&documentId=${id}`)).signatures as TestBody[]).map(
        (s) => shared(s, ['id', 'documentId', 'signedAt', 'contentHash']),
      );
    const factorySigned = await signatures(built.documentId);
    expect(factorySigned.map((s) => [s.action, s.userId, s.valid])).toEqual([
      ['Submit', submitter.id, true],
      ['Approve', approver.id, true],
    ]);
    expect(factorySigned).toEqual(await signatures(sopId));
    expect(await createAudit('SOP', built.documentId)).toEqual(await createAudit('SOP', sopId));
  });
});
