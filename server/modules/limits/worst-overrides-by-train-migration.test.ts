import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, SqlValue } from '#server/db/db.ts';
import { migrate } from '#server/db/migrate.ts';
import { insertEquipment, seededBefore } from '#server/test/migration-db.ts';
import { overrideContent, type OverrideRow } from './worst-product-overrides.ts';

/*
 * Migration 20261220020100 on a database whose worst-case overrides of trains are keyed by the
 * production: every override keeps its row and what it signed, and names a train.
 * - P1, on no train, with an override in force, its equipment changed after the signature:
 *   a train 'P1' of its equipment now, P1 put on it, the override signed for E1 alone.
 * - P2 and P3 on one train T, each with an override in force: P2's follows T, P3 gets its own
 *   train of the same equipment (one override in force per train).
 * - P4 on no train, a train already named 'P4': its train is 'P4 (production <id>)'.
 * - P5 on no train, its override ended: no train is made, the ended override names none.
 */

const MIGRATION = '20261220020100_worst_overrides_by_train.sql';
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions

let db: Db;
let facilityId: number;
type Key = 'E1' | 'E2' | 'A' | 'T' | 'taken' | 'P1' | 'P2' | 'P3' | 'P4' | 'P5';
type OverrideKey = 'oP1' | 'oP2' | 'oP3' | 'oP4' | 'oP5';
const id = {} as Record<Key | OverrideKey, number>;
let signedBefore: Map<number, unknown>;
let sign: (documentId: number) => Promise<number>;

const one = async (sql: string, params: SqlValue[] = []) =>
  ((await db.query<{ id: number }>(sql, params))[0] as { id: number }).id;

beforeAll(async () => {
  ({ db, facilityId } = await seededBefore(MIGRATION));
  const userId = await one('select id from users order by id limit 1');
  Object.assign(id, await insertEquipment(db, facilityId, ['E1', 'E2']));
  id.A = await one(
    `insert into products (facility_id, name, max_daily_dose, min_batch_size)
     values ($1, 'A', '{"value": 100, "unit": "mg"}', '{"value": 10, "unit": "kg"}') returning id`,
    [facilityId],
  );
  id.T = await one(
    `insert into equipment_trains (facility_id, name, equipment_ids) values ($1, 'T', $2) returning id`,
    [facilityId, [id.E1, id.E2]],
  );
  id.taken = await one(
    `insert into equipment_trains (facility_id, name, equipment_ids) values ($1, 'p4', $2) returning id`,
    [facilityId, [id.E2]],
  );
  const production = (name: string, equipmentIds: number[], trainId: number | null) =>
    one(
      `insert into productions (facility_id, name, equipment_ids, product_ids, train_id)
       values ($1, $2, $3, $4, $5) returning id`,
      [facilityId, name, equipmentIds, [id.A], trainId],
    );
  id.P1 = await production('P1', [id.E1], null);
  id.P2 = await production('P2', [id.E1, id.E2], id.T);
  id.P3 = await production('P3', [id.E1, id.E2], id.T);
  id.P4 = await production('P4', [id.E2], null);
  id.P5 = await production('P5', [id.E1], null);
  const override = async (productionId: number, ended: boolean) => {
    const signature = await sign(productionId);
    return one(
      `insert into worst_product_overrides (facility_id, production_id, product_id, product,
         keep_computed_limit, justification, signature_id, ended_at, ended_by, end_reason)
       values ($1, $2, $3, 'A', true, 'Hardest to clean', $4, $5, $6, $7) returning id`,
      [
        facilityId,
        productionId,
        id.A,
        signature,
        ended ? new Date() : null,
        ended ? userId : null,
        ended ? 'Study done' : null,
      ],
    );
  };
  sign = (documentId: number) =>
    one(
      `insert into signatures (facility_id, document_type, document_id, version_number, action,
         signer_role, meaning, printed_name, user_id, content_hash)
       values ($1, 'WorstProductOverride', $2, 1, 'Approve', 'Approver',
               'Approve worst-case override', 'Ada Admin', $3, 'h') returning id`,
      [facilityId, documentId, userId],
    );
  for (const p of ['P1', 'P2', 'P3', 'P4'] as const) id[`o${p}`] = await override(id[p], false);
  id.oP5 = await override(id.P5, true);
  // P1's equipment changes after its override was signed (a new kept version of P1).
  await db.query(
    `update productions set equipment_ids = $2, version = version + 1, updated_at = now()
      where id = $1`,
    [id.P1, [id.E1, id.E2]],
  );
  const before = await db.query<OverrideRow>('select * from worst_product_overrides');
  signedBefore = new Map(before.map((r) => [r.id, overrideContent({ ...r, train_id: null })]));
  await migrate(db);
  // Migrating a new embedded database from scratch takes a minute on a busy 2-core machine.
}, 240_000);
afterAll(async () => {
  await db?.close();
});

const overrideOf = async (overrideId: number) =>
  (await db.query<Row>('select * from worst_product_overrides where id = $1', [overrideId]))[0]!;
const productionOf = async (productionId: number) =>
  (await db.query<Row>('select * from productions where id = $1', [productionId]))[0]!;
const trainOf = async (trainId: number) =>
  (await db.query<Row>('select * from equipment_trains where id = $1', [trainId]))[0]!;

describe('worst-case overrides keyed by the production, after the migration', () => {
  it('loses none and rewrites none of what was signed', async () => {
    const after = await db.query<OverrideRow>('select * from worst_product_overrides order by id');
    expect(after.map((r) => r.id)).toEqual([...signedBefore.keys()].sort((a, b) => a - b));
    for (const row of after) expect(overrideContent(row)).toEqual(signedBefore.get(row.id));
    expect(after.filter((r) => (r as Row).ended_at === null)).toHaveLength(4);
  });

  it('gives a production on no train a train of its equipment, and the override that train', async () => {
    const p1 = await productionOf(id.P1);
    const train = await trainOf(p1.train_id);
    expect(train).toMatchObject({
      name: 'P1',
      equipment_ids: [id.E1, id.E2],
      facility_id: facilityId,
    });
    expect(p1.version).toBe(3);
    // Signed when P1 ran on E1 alone: to be reviewed against the train's E1, E2.
    expect(await overrideOf(id.oP1)).toMatchObject({
      train_id: train.id,
      production_id: id.P1,
      train_equipment_ids: [id.E1],
    });
    const audit = await db.query<Row>(
      `select domain, action, entity_id from audit_log
        where (domain = 'EquipmentTrain' and entity_id = $1)
           or (domain = 'Production' and entity_id = $2) order by id`,
      [String(train.id), String(id.P1)],
    );
    expect(audit.map((a) => `${a.domain} ${a.action}`)).toEqual([
      'EquipmentTrain Create',
      'Production Update',
    ]);
  });

  it('keeps the first override of a shared train on it and gives the second its own train', async () => {
    expect(await overrideOf(id.oP2)).toMatchObject({ train_id: id.T });
    expect((await productionOf(id.P2)).train_id).toBe(id.T);
    const p3 = await productionOf(id.P3);
    expect(p3.train_id).not.toBe(id.T);
    expect(await trainOf(p3.train_id)).toMatchObject({ name: 'P3', equipment_ids: [id.E1, id.E2] });
    expect(await overrideOf(id.oP3)).toMatchObject({
      train_id: p3.train_id,
      train_equipment_ids: [id.E1, id.E2],
    });
  });

  it('names a train after its production when the name is taken', async () => {
    const p4 = await productionOf(id.P4);
    expect((await trainOf(p4.train_id)).name).toBe(`P4 (production ${id.P4})`);
    expect((await overrideOf(id.oP4)).train_id).toBe(p4.train_id);
  });

  it('makes no train for an ended override, and allows one override in force per train', async () => {
    expect((await productionOf(id.P5)).train_id).toBeNull();
    expect(await overrideOf(id.oP5)).toMatchObject({ train_id: null, production_id: id.P5 });
    const signature = await sign(id.T);
    await expect(
      db.query(
        `insert into worst_product_overrides (facility_id, train_id, product_id, product,
           keep_computed_limit, justification, signature_id)
         values ($1, $2, $3, 'A', true, 'again', $4)`,
        [facilityId, id.T, id.A, signature],
      ),
    ).rejects.toThrow();
  });
});
