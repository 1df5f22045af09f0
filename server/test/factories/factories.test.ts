import { describe, expect, it } from 'vitest';
import type { Actor } from '#server/db/audit-write.ts';
import { testActor } from '../factories.ts';
import { ADMIN } from '../test-server.ts';
import { useFacilityTestServer, type TestBody } from '../facility-test-file.ts';
import { adminSigner } from './admin.ts';
import { buildChangeAssessment } from './change-assessments.ts';
import { buildDeviation, closeDeviation } from './deviations.ts';
import {
  buildActive,
  buildEquipment,
  buildProduct,
  buildProduction,
  recordFactory,
  type FactoryScope,
} from './entities.ts';
import { buildOperator, buildSamplingLocations, samplingTypeId } from './sampling.ts';
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

/** The actions of a record's audit rows, in order. */
async function auditActions(domain: string, id: number): Promise<string[]> {
  const rows = await t.server.db.query<{ action: string }>(
    `select action from audit_log where domain = $1 and entity_id = $2 order by seq`,
    [domain, String(id)],
  );
  return rows.map((r) => r.action);
}

/** Submits the record over HTTP as the administrator, and approves it as the facility's approver. */
async function signOverApi(documentType: string, documentId: number) {
  const { approver } = await buildSigners(t.server.db, t.facilityId);
  const asApprover = await t.server.login(approver.username, approver.password);
  for (const [action, as, password] of [
    ['Submit', t.token, ADMIN.password],
    ['Approve', asApprover, approver.password],
  ] as const) {
    const body = { documentType, documentId, action, password };
    expect((await t.call('POST', `${t.F}/signatures`, body, as)).status).toBe(200);
  }
  return approver;
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

describe('sampling factories', () => {
  it('buildSamplingLocations and buildOperator write as POST sampling-locations and operator do', async () => {
    const admin = await adminActor();
    const equipment = await buildEquipment(t.server.db, scope());
    const swab = await samplingTypeId(t.server.db, t.facilityId, 'Swab');
    const fields = { sampleType: 'swab', samplingTypeId: swab, material: 'PTFE' } as const;
    const [built] = await buildSamplingLocations(
      t.server.db,
      scope(),
      equipment.id,
      [{ name: 'Valve', ...fields }],
      { actor: admin },
    );
    const L = `equipments/${equipment.id}/sampling-locations`;
    const byApi = (
      await created(L, { equipmentId: equipment.id, data: [{ name: 'Gasket', ...fields }] })
    ).result[0] as TestBody;
    const [fromFactory, fromApi] = [
      await read(`${L}/${built!.id}`),
      await read(`${L}/${byApi.id}`),
    ];
    expect(fromFactory).toMatchObject({ version: 1, swabArea: expect.anything() });
    expect(shared(fromFactory, OWN)).toEqual(shared(fromApi, OWN));
    expect(await createAudit('SamplingLocation', built!.id)).toEqual(
      await createAudit('SamplingLocation', byApi.id),
    );

    const operator = await buildOperator(t.server.db, scope(), { operatorId: 'OP-F' }, admin);
    const apiOperator = await created('operator', {
      firstName: 'Olga',
      lastName: 'Op',
      operatorId: 'OP-A',
    });
    const operatorOwn = ['id', 'operatorId', 'createdAt', 'updatedAt'];
    expect(shared(operator, operatorOwn)).toEqual(shared(apiOperator, operatorOwn));
    const listed = (await read('operator?search=OP-&pageLimit=100')).data as TestBody[];
    expect(listed.map((o) => o.operatorId)).toEqual(expect.arrayContaining(['OP-F', 'OP-A']));
    expect(await createAudit('Operator', operator.id)).toEqual(
      await createAudit('Operator', apiOperator.id as number),
    );
  });
});

describe('deviation factories', () => {
  it('buildDeviation raises and closeDeviation closes as the deviation and signature calls do', async () => {
    const signer = await adminSigner(t.server.db);
    const admin = actorFor(signer);
    const study = await buildStudy(t.server, scope(), {}, admin);
    const run = await buildRun(t.server, scope(), study.id, {
      actor: admin,
      event: { startedAt: '2026-11-01T08:00:00Z' },
    });
    const built = await buildDeviation(t.server, scope(), run.id, { title: 'By factory' }, admin);
    const raised = await created(`runs/${run.id}/deviations`, { kind: 'process', title: 'By API' });
    const byApi = (raised.run.deviations as TestBody[]).at(-1)!;
    const own = ['id', 'number', 'title', 'createdAt'];
    expect(built).toMatchObject({ status: 'Open', version: 1 });
    expect(shared(built, own)).toEqual(shared(byApi, own));
    expect(await createAudit('Deviation', built.id)).toEqual(
      await createAudit('Deviation', byApi.id as number),
    );

    // Closed by the factory, and over HTTP by the same people: root cause, Submit, Approve.
    const closedRun = await closeDeviation(t.server, scope(), built, {
      actor: admin,
      signers: { submitter: signer },
    });
    await created(`deviations/${byApi.id}`, {
      rootCause: 'Found',
      conclusion: 'Concluded',
      reason: 'Investigated',
      version: byApi.version,
    });
    const approver = await signOverApi('Deviation', byApi.id as number);
    const apiRun = (await read(`runs/${run.id}`)).run as TestBody;
    const closedOwn = [...own, 'closedAt'];
    const closed = (d: TestBody[], id: number) =>
      shared(
        d.find((x) => x.id === id)!,
        closedOwn,
      );
    expect(closed(closedRun.deviations, built.id)).toMatchObject({
      status: 'Closed',
      closedByName: approver.name,
    });
    expect(closed(closedRun.deviations, built.id)).toEqual(
      closed(apiRun.deviations as TestBody[], byApi.id as number),
    );
    expect(await auditActions('Deviation', built.id)).toEqual(
      await auditActions('Deviation', byApi.id as number),
    );
  });
});

describe('recordFactory', () => {
  it('writes any declared record by its path as the POST of that path does', async () => {
    const create = recordFactory(t.server.db, scope(), await adminActor());
    const product = await buildProduct(t.server.db, scope());
    const line = await buildProduction(t.server.db, scope(), { productIds: [product.id] });
    const study = {
      productId: product.id,
      productionId: line.id,
      studyType: 'Validation',
      completedDate: '2025-06-01',
      outcome: 'Validated',
      surfaceLimitValidated: { value: 0.005, unit: 'mg/sqcm' },
    };
    // Each by the factory and by the API, as the same body but for its name.
    for (const [path, domain, body] of [
      ['product_groups', 'ProductGroup', { productIds: [product.id] }],
      ['historical-study', 'HistoricalStudy', study],
    ] as const) {
      const id = await create(path, { name: `${domain} by factory`, ...body });
      await sameAsApi(path, domain, { id }, { name: `${domain} by API`, ...body });
    }
    await expect(create('nowhere', {})).rejects.toThrow('No declared record is written at nowhere');
  });
});

describe('buildChangeAssessment', () => {
  it('stages, evaluates, decides and approves as the change-assessment calls do', async () => {
    const signer = await adminSigner(t.server.db);
    const [mine, theirs] = [
      await buildProduct(t.server.db, scope()),
      await buildProduct(t.server.db, scope()),
    ];
    const change = (id: number) =>
      ({
        op: 'update',
        entity: 'products',
        recordId: id,
        values: { maxDailyDose: { value: 300, unit: 'mg' } },
      }) as const;
    const built = await buildChangeAssessment(t.server, scope(), {
      actor: actorFor(signer),
      fields: { title: 'By factory', changeType: 'Other' },
      changes: [change(mine.id)],
      decideAll: true,
      signers: { submitter: signer },
    });
    // The same by HTTP: created, staged, evaluated, decided, submitted and approved.
    const CA = 'change-assessments';
    let byApi = (await created(CA, { title: 'By API', changeType: 'Other' })).changeAssessment;
    const step = async (path: string, body: object) =>
      (byApi = (await created(`${CA}/${byApi.id}/${path}`, { ...body, version: byApi.version }))
        .changeAssessment);
    await step('changes', { ...change(theirs.id), reason: 'Planned change' });
    await step('evaluate', {});
    const impact = await read(`${CA}/${byApi.id}/impact?pageLimit=1000`);
    // Decided only when the evaluation found items (this facility's plain products give none).
    const decisions = (impact.items as TestBody[]).map((i) => ({
      key: i.key,
      decision: 'verification',
      justification: 'Verify on the next batch',
    }));
    if (decisions.length > 0) await step('decisions', { decisions });
    await signOverApi('ChangeAssessment', byApi.id as number);
    const [fromFactory, fromApi] = [
      (await read(`${CA}/${built.id}`)).changeAssessment as TestBody,
      (await read(`${CA}/${byApi.id}`)).changeAssessment as TestBody,
    ];
    const state = (ca: TestBody) => ({
      changeStatus: ca.changeStatus,
      status: ca.status,
      versionNumber: ca.versionNumber,
      version: ca.version,
      applied: ca.applied !== null,
      changes: (ca.changes as TestBody[]).map((c) => [c.op, c.entity, c.values]),
      // The impact itself differs: the other one's change is applied when this one is evaluated.
      evaluated: ca.evaluation !== null,
    });
    expect(state(fromFactory)).toMatchObject({ changeStatus: 'Approved', applied: true });
    expect(state(fromFactory)).toEqual(state(fromApi));
    expect((await read(`products/${mine.id}`)).maxDailyDose).toEqual({ value: 300, unit: 'mg' });
    expect(await auditActions('ChangeAssessment', built.id)).toEqual(
      await auditActions('ChangeAssessment', byApi.id as number),
    );
  });
});
