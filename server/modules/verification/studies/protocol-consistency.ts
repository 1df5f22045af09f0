import { validationError, type PropertyError } from '#core/errors/errors.ts';
import {
  equipmentDef,
  equipmentTrainsDef,
  productsDef,
  protocolsDef,
} from '#core/entities/defs/index.ts';
import { missingRecord } from '#core/labels/missing-record.ts';
import type { TSampleType } from '#core/schemas/verification.schemas.ts';
import { isUnit, kindOf } from '#core/units/units.ts';
import type { Queryable } from '#server/db/db.ts';
import { onBeforeSave } from '#server/entities/archive-hooks.ts';
import { recordsInForce } from '#server/records/controlled-entities.ts';
import { locationFacts, methodFacts, type MethodFacts } from '../runs/run-plan.ts';
import { methodFitProblem, studyAsPlanned } from './protocol-fitness.ts';

/*
 * A protocol that cannot be inconsistent (core/verification/README.md, "Protocol"): its
 * equipment and products are the train's (or fewer), its locations are on its equipment, and
 * each location's method is of the location's sample type and can show its limit. Checked on
 * every save of the whole record, so a new version is consistent; versions approved before
 * stay as they were signed. EU GMP Annex 15 §10: the protocol states the equipment, the
 * sampling locations and the validated methods with their limits of quantitation.
 */

export interface TProtocolPlanRow {
  samplingLocationId: number;
  sampleType: TSampleType;
  analyticalMethodId: number;
}

const idsOf = (value: unknown): number[] => (Array.isArray(value) ? (value as number[]) : []);

const problem = (property: string, rule: string, message: string): PropertyError => ({
  property,
  constraints: { [rule]: message },
});

async function namesOf(
  q: Queryable,
  table: 'equipment' | 'products',
  facilityId: number,
  ids: readonly number[],
): Promise<Map<number, string>> {
  const rows = await q.query<{ id: number; name: string }>(
    `select id, name from ${table} where facility_id = $1 and id = any($2::int[])`,
    [facilityId, [...ids]],
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** What a protocol is planned on: its production, and the equipment train it names. */
interface Planned {
  production?: { name: string; equipment_ids: number[]; product_ids: number[] } | undefined;
  train?: { name: string; equipment_ids: number[]; inForce: boolean } | undefined;
}

/**
 * The equipment train a protocol names, with the equipment of its version in force: a draft of
 * the train is planned on by nobody (21 CFR 211.100(a)). `inForce` false: none approved yet.
 */
async function trainInForce(
  q: Queryable,
  facilityId: number,
  trainId: number,
): Promise<NonNullable<Planned['train']>[]> {
  const rows = await q.query<{ id: number; name: string; equipmentIds: number[] }>(
    `select id, name, equipment_ids as "equipmentIds" from equipment_trains
      where facility_id = $1 and id = $2`,
    [facilityId, trainId],
  );
  const [approved] = await recordsInForce(q, equipmentTrainsDef, facilityId, rows);
  return rows.map((row) => ({
    name: String(approved?.name ?? row.name),
    equipment_ids: approved ? idsOf(approved.equipmentIds) : [],
    inForce: approved !== undefined,
  }));
}

/**
 * Equipment the protocol's equipment train (else its production) does not have, and products
 * its production does not make.
 */
async function trainProblems(
  q: Queryable,
  facilityId: number,
  record: Readonly<Record<string, unknown>>,
  { production, train }: Planned,
): Promise<PropertyError[]> {
  const equipmentOn = train
    ? { on: train.equipment_ids, is: `is not on the equipment train ${train.name}` }
    : production
      ? { on: production.equipment_ids, is: `is not on the production ${production.name}` }
      : null;
  const sides = [
    ...(equipmentOn
      ? [{ field: 'equipmentIds', table: 'equipment', label: equipmentDef.label, ...equipmentOn }]
      : []),
    ...(production
      ? [
          {
            field: 'productIds',
            table: 'products',
            label: productsDef.label,
            on: production.product_ids,
            is: `is not made on the production ${production.name}`,
          },
        ]
      : []),
  ] as const;
  const found = await Promise.all(
    sides.map(async (side) => {
      const ids = idsOf(record[side.field]);
      const names = await namesOf(q, side.table as 'equipment' | 'products', facilityId, ids);
      return ids.flatMap((id, i) =>
        side.on.includes(id)
          ? []
          : [
              problem(
                `${side.field}[${i}]`,
                'train',
                `${names.get(id) ?? missingRecord(side.label, 'deleted', true)} ${side.is}`,
              ),
            ],
      );
    }),
  );
  return found.flat();
}

/**
 * The sample type a method is for: the one it declares, else the one its LOQ's unit implies (an
 * LOQ per swab serves only swabs, per rinse only rinses); null when it serves both.
 */
function methodSampleType(declared: TSampleType | null, method: MethodFacts): TSampleType | null {
  if (declared) return declared;
  const unit = method.loq?.unit;
  if (!isUnit(unit)) return null;
  const kind = kindOf(unit);
  return kind === 'swabLimit' ? 'swab' : kind === 'rinseLimit' ? 'rinse' : null;
}

/** Every problem of the sampling plan, rows by index. */
async function planProblems(
  q: Queryable,
  facilityId: number,
  record: Readonly<Record<string, unknown>>,
  equipmentInScope: readonly number[] | null,
): Promise<PropertyError[]> {
  const plan = (
    Array.isArray(record.samplingPlan) ? record.samplingPlan : []
  ) as TProtocolPlanRow[];
  if (plan.length === 0) return [];
  const methodIds = plan.map((row) => row.analyticalMethodId);
  const [locations, methods, declared, study] = await Promise.all([
    locationFacts(
      q,
      facilityId,
      plan.map((row) => row.samplingLocationId),
    ),
    methodFacts(q, facilityId, methodIds),
    q.query<{ id: number; sample_type: TSampleType | null }>(
      'select id, sample_type from analytical_methods where facility_id = $1 and id = any($2::int[])',
      [facilityId, methodIds],
    ),
    studyAsPlanned(
      q,
      facilityId,
      record,
      plan.map((row) => row.samplingLocationId),
    ),
  ]);
  const declaredType = new Map(declared.map((m) => [m.id, m.sample_type]));
  return plan.flatMap((row, i): PropertyError[] => {
    const at = `samplingPlan[${i}]`;
    const location = locations.get(row.samplingLocationId);
    if (!location) return [];
    const found: PropertyError[] = [];
    if (equipmentInScope && !equipmentInScope.includes(location.equipmentId))
      found.push(
        problem(
          `${at}.samplingLocationId`,
          'equipment',
          `${location.name} is on ${location.equipmentName}, which is not among the protocol's equipment`,
        ),
      );
    if (row.sampleType !== location.sampleType)
      found.push(
        problem(
          `${at}.sampleType`,
          'sampleType',
          `${location.name} is sampled by ${location.sampleType}, not ${row.sampleType}`,
        ),
      );
    const method = methods.get(row.analyticalMethodId);
    if (!method) return found;
    const methodType = methodSampleType(declaredType.get(method.id) ?? null, method);
    if (methodType && methodType !== location.sampleType) {
      found.push(
        problem(
          `${at}.analyticalMethodId`,
          'sampleType',
          `${method.name} is a ${methodType} method; ${location.name} is sampled by ${location.sampleType}`,
        ),
      );
      return found;
    }
    const unfit = study ? methodFitProblem(study, location, method) : null;
    if (unfit) found.push(problem(`${at}.analyticalMethodId`, 'methodFit', unfit));
    return found;
  });
}

onBeforeSave(protocolsDef.key, 'consistency', async (q, _def, scope, { record }) => {
  const facilityId = scope.facilityId!;
  const idOf = (value: unknown) => (typeof value === 'number' ? value : null);
  const productionId = idOf(record.productionId);
  const trainId = idOf(record.trainId);
  const [[production], [train]] = await Promise.all([
    productionId
      ? q.query<NonNullable<Planned['production']>>(
          'select name, equipment_ids, product_ids from productions where facility_id = $1 and id = $2',
          [facilityId, productionId],
        )
      : [],
    trainId ? trainInForce(q, facilityId, trainId) : [],
  ]);
  const equipmentIds = idsOf(record.equipmentIds);
  // The protocol's equipment: its own list, else its equipment train's, else its production's;
  // with none it names none, and its locations are what it covers.
  const equipmentInScope =
    equipmentIds.length > 0
      ? equipmentIds
      : (train?.equipment_ids ?? production?.equipment_ids ?? null);
  const problems = [
    ...(train?.inForce === false
      ? [
          problem(
            'trainId',
            'approved',
            `The equipment train ${train.name} has no approved version: approve it before a protocol names it`,
          ),
        ]
      : []),
    ...(await trainProblems(q, facilityId, record, {
      production,
      train: train?.inForce ? train : undefined,
    })),
    ...(await planProblems(q, facilityId, record, equipmentInScope)),
  ];
  if (problems.length > 0) throw validationError(problems);
});
