import {
  changeImpact,
  type AnalyticalMethod,
  type ChangeImpact,
  type ImpactContext,
} from '#core/assessments/change-impact.ts';
import { randomBytes } from 'node:crypto';
import { sampleAmount } from '#core/assessments/impact-units.ts';
import { analyticalMethodsDef } from '#core/entities/defs/cleaning.def.ts';
import { equipmentDef, productsDef, productionsDef } from '#core/entities/defs/index.ts';
import { AppError } from '#core/errors/errors.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import type { MatrixRun } from '#core/limits/pair-walk.ts';
import type { Quantity } from '#core/units/quantity.ts';
import type { TChangeAssessment } from '#core/schemas/change-assessments.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { keepingView } from '#server/db/kept-reads.ts';
import { allEntities } from '#server/entities/entity-store.ts';
import { facilityLimitsInput } from '../limits/facility-limits-input.ts';
import { trainWorstProductsLater } from '../limits/worst-products.service.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { facilityDataWatermark, getChangeAssessment, numberOf } from './change-assessments.read.ts';
import {
  applyChanges,
  changesOf,
  editableAssessment,
  inTransaction,
  rolledBack,
  staleChange,
  writeAssessment,
} from './change-assessments.service.ts';
import type { Scope } from './change-content.ts';
import { impactResults } from './impact-results.ts';

/*
 * Evaluate (core/assessments/README.md): the engine input in force, the whole change set applied
 * on the real write path in a savepoint that is rolled back, the input again, and the two
 * compared with changeImpact. Stored with the facility's data watermark and the change set's
 * version, which together say whether the evaluation is still current.
 */

const nameOf = (r: Record<string, unknown>) => String(r.name);

/** Each production's computed worst-case product, by its id, from `trainWorstProducts`' rows. */
const byProduction = (trains: { productionId: number; computed: { product: string | null } }[]) =>
  new Map(trains.map((t) => [t.productionId, t.computed.product]));

/** The worst case of each production on an input and its matrix's run, by production id. */
type WorstLater = (input: LimitsInput, run: MatrixRun) => Map<number, string | null>;

/** The reads of each production's worst case now; the worst cases later, on a run of the matrix. */
async function worstCasesLater(q: Queryable, facilityId: number): Promise<WorstLater> {
  const later = await trainWorstProductsLater(q, facilityId);
  return (input, run) => byProduction(later(input, run).trains);
}

/**
 * The trains and analytical methods of the facility as they are (after the change, in the trial),
 * each train's worst case before and after named from the impact's own two matrix runs:
 * `worstBefore` was read before the change, and the after side's records are read here.
 */
export async function impactContext(
  q: Queryable,
  facilityId: number,
  input: LimitsInput,
  before: { input: LimitsInput; worst: WorstLater },
): Promise<ImpactContext> {
  const [productions, products, equipment, methods, worstAfter] = await Promise.all([
    allEntities(q, productionsDef, facilityId),
    allEntities(q, productsDef, facilityId),
    allEntities(q, equipmentDef, facilityId),
    allEntities(q, analyticalMethodsDef, facilityId),
    worstCasesLater(q, facilityId),
  ]);
  const productName = new Map(products.map((p) => [p.id, nameOf(p)]));
  const equipmentName = new Map(equipment.map((e) => [e.id, nameOf(e)]));
  const names = (ids: unknown, of: Map<number, string>) =>
    ((ids as number[] | null) ?? []).map((id) => of.get(id)).filter((n): n is string => !!n);
  // An LOQ is a concentration: compared with the rinse limit (the swab needs an extraction
  // volume the facility does not declare yet).
  const withLoq: AnalyticalMethod[] = [];
  for (const m of methods) {
    const loq = m.loq as Quantity<string> | null;
    if (!loq) continue;
    try {
      sampleAmount(loq, 'rinse', input.sampling, nameOf(m));
      withLoq.push({ name: nameOf(m), sampleType: 'rinse', loq });
    } catch {
      // An LOQ in a unit the rinse limit cannot be compared with is left out.
    }
  }
  return {
    trains: productions.map((p) => ({
      name: nameOf(p),
      products: names(p.productIds, productName),
      equipment: names(p.equipmentIds, equipmentName),
    })),
    worstCases: (runBefore, runAfter) => {
      const then = before.worst(before.input, runBefore);
      const now = worstAfter(input, runAfter);
      return productions.map((p) => ({
        before: then.get(p.id) ?? null,
        after: now.get(p.id) ?? null,
      }));
    },
    methods: withLoq,
    results: await impactResults(q, facilityId, productName, equipmentName),
  };
}

/**
 * The impact of the assessment's change set on the limits in force, computed and rolled back.
 * Each side reads the facility's records once (keepingView) for its input, its worst cases and
 * the context, the side in the trial after the change set is applied.
 */
export async function computeImpact(
  tx: Queryable,
  apply: (tx: Queryable) => Promise<void>,
  facilityId: number,
): Promise<ChangeImpact> {
  const then = keepingView(tx);
  const [before, worst] = await Promise.all([
    facilityLimitsInput(then, facilityId),
    worstCasesLater(then, facilityId),
  ]);
  const { after, context } = await rolledBack(tx, async () => {
    await apply(tx);
    const now = keepingView(tx);
    const input = await facilityLimitsInput(now, facilityId);
    return {
      after: input,
      context: await impactContext(now, facilityId, input, { input: before, worst }),
    };
  });
  return changeImpact(before, after, context);
}

export async function evaluateChangeAssessment(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  { version }: { version: number },
): Promise<TChangeAssessment> {
  await inTransaction(db, async (tx) => {
    const row = await editableAssessment(tx, actor, scope, id, version);
    const watermark = await facilityDataWatermark(tx, scope.facilityId);
    const changes = await changesOf(tx, id);
    // The evaluation applies the set as its approval would, and is rolled back: its approval
    // entries are sealed with a key no one keeps, so none could stand for a real approval.
    const approvedAs = { id, number: numberOf(row.seq), key: randomBytes(32) };
    const stale = await staleChange(tx, scope.facilityId, approvedAs.number, changes);
    if (stale) throw new AppError('TransactionLocked', stale);
    const impact = await computeImpact(
      tx,
      (inner) => applyChanges(inner, changes, { actor, scope, dbKind: db.kind, approvedAs }),
      scope.facilityId,
    );
    const items = impact.items.map(({ decision: _d, ...item }) => item);
    await tx.query(
      `insert into change_assessment_evaluations (assessment_id, facility_id, evaluated_by,
         watermark, change_set_version, summary, items, pairs)
       values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (assessment_id) do update
         set evaluated_at = now(), evaluated_by = excluded.evaluated_by,
             watermark = excluded.watermark, change_set_version = excluded.change_set_version,
             summary = excluded.summary, items = excluded.items, pairs = excluded.pairs`,
      [
        id,
        scope.facilityId,
        actor.userId,
        watermark,
        row.change_set_version,
        JSON.stringify(impact.summary),
        JSON.stringify(items),
        JSON.stringify(impact.pairs),
      ],
    );
    await writeAssessment(tx, actor, scope, row, {
      audit: {
        action: 'Evaluate',
        newValues: { watermark, changeSetVersion: row.change_set_version, summary: impact.summary },
      },
    });
  });
  return getChangeAssessment(db, scope.facilityId, id);
}
