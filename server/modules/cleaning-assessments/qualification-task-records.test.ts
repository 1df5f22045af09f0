import { beforeAll, describe, expect, it } from 'vitest';
import type { TCoverageCell } from '#core/schemas/cleaning-assessments.schemas.ts';
import { recordCreator } from '#server/test/create-record.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { setFacilityKind } from '#server/test/test-server.ts';
import { createTasksFromGaps } from './qualification-tasks.ts';

/*
 * Qualification tasks go through the one write path of records (server/records/write-record.ts),
 * on a real database: a task carried over to a later assessment and its decision each keep a
 * history row; the carry-over is audited once for the assessment's run, the decision as itself,
 * and a decision from a stale version is refused and changes nothing.
 */

const t = useFacilityTestServer();
let product: number;
let line: number;
let signer: { token: string; password: string };

beforeAll(async () => {
  await setFacilityKind(t.server, 1, { tier: 'full' });
  const create = recordCreator(t.server, t.token, t.F);
  product = await create('products', {
    name: 'Product Q',
    maxDailyDose: { value: 100, unit: 'mg' },
    minBatchSize: { value: 10, unit: 'kg' },
  });
  line = await create('productions', { name: 'Line Q', equipmentIds: [], productIds: [product] });
  const user = await buildUser(t.server.db, {
    permissions: permissionsWith({ QualificationTask: ['Get', 'Modify'] }),
  });
  signer = { token: await t.server.login(user.username, user.password), password: user.password };
});

const gap = (train: string): TCoverageCell => ({
  product: 'Product Q',
  productId: product,
  train,
  trainId: line,
  state: 'notCovered',
  representative: null,
  currentLimit: null,
  evidence: [],
});

const assess = (evaluationId: number, train: string) =>
  t.server.db.transaction((tx) =>
    createTasksFromGaps(tx, { facilityId: t.facilityId, evaluationId, coverage: [gap(train)] }),
  );

describe('a qualification task', () => {
  it('keeps a version per write: carried over, then decided; a stale decision is refused', async () => {
    const { created } = await assess(201, 'Line Q');
    const id = created[0]!;
    expect(await assess(202, 'Line Q (renamed)')).toEqual({ created: [], carriedOver: [id] });
    const decide = (version: number) =>
      t.call(
        'POST',
        `${t.F}/qualification-task/task/${id}`,
        { action: 'accept', password: signer.password, version },
        signer.token,
      );
    const stale = await decide(1);
    expect(stale.status).toBe(409);
    expect(stale.body.errName).toBe('VersionConflictError');
    const accepted = await decide(2);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.qualificationTask).toMatchObject({ status: 'Accepted', version: 3 });
    const kept = await t.server.db.query<{ version: number; row_data: Body }>(
      `select version, row_data from record_versions
        where table_name = 'qualification_tasks' and record_id = $1 order by id`,
      [id],
    );
    expect(
      kept.map((k) => [
        k.version,
        k.row_data.evaluation_id,
        k.row_data.train_name,
        k.row_data.status,
      ]),
    ).toEqual([
      [1, 201, 'Line Q', 'Open'],
      [2, 202, 'Line Q (renamed)', 'Open'],
      [3, 202, 'Line Q (renamed)', 'Accepted'],
    ]);
    const audits = await t.server.db.query<{ action: string; entity_id: string }>(
      `select action, entity_id from audit_log where domain = 'QualificationTask'
          and entity_id = any($1::text[]) order by seq`,
      [[String(id), '201', '202']],
    );
    expect(audits.map((a) => [a.action, a.entity_id])).toEqual([
      ['Create', '201'],
      ['Create', '202'],
      ['Accept', String(id)],
    ]);
  });
});
