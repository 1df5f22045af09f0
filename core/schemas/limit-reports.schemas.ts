import { z } from 'zod';
import { ZSampleLimitBasis, ZUncomputable } from './mac-matrix.schemas.ts';
import { ZHistoryStartsAt } from './versions.schemas.ts';
import { ZTargetOverride } from './worst-products.schemas.ts';

/**
 * The answers of the limits reports (server/modules/limits/limit-reports.routes.ts and
 * limits-views.routes.ts): the server checks them with these, the client types them from these.
 * Derivations and explanations are the engine's own JSON (core/limits/derivation.ts,
 * explain.ts), checked here only as objects.
 */
export const ZJsonObject = z.record(z.string(), z.unknown());

const ZOrNull = z.number().nullable();
const ZLeftOut = z.array(ZUncomputable);

/** A lowest limit and the previous → next pair that set it; null when no pair has one. */
export const ZLowestLimit = z.object({
  value: ZOrNull,
  pair: z.tuple([z.string(), z.string()]).nullable(),
});
const lowestLimits = {
  maco: ZLowestLimit,
  sal: ZLowestLimit,
  swab: ZLowestLimit,
  rinse: ZLowestLimit,
};
export const ZLowestLimits = z.object(lowestLimits);

export const ZLimitUnits = z.object({
  maco: z.literal('mg'),
  sal: z.literal('mg/sqcm'),
  swab: z.literal('mg/swab'),
  rinse: z.literal('mg/ml'),
});
export const LIMIT_UNITS = { maco: 'mg', sal: 'mg/sqcm', swab: 'mg/swab', rinse: 'mg/ml' } as const;

/**
 * Where each linked active's PDE comes from (issue 32): the HBEL library entry and version, and a
 * site override with its justification and signer, in words (core/hbel/lineage.ts).
 */
export const ZPdeLineage = z.array(z.object({ active: z.string(), lineage: z.string() }));

export const ZEquipmentLimits = z.object({
  equipment: z.array(z.object({ id: z.string(), pairCount: z.number().int(), ...lowestLimits })),
  explanations: ZJsonObject,
  /** The swab area and rinse volume used, from the facility's sampling types. */
  sampling: ZJsonObject,
  pdeLineage: ZPdeLineage,
  units: ZLimitUnits,
  uncomputable: ZLeftOut,
  historyStartsAt: ZHistoryStartsAt,
});

export const ZProductionLimits = z.object({
  productions: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      productCount: z.number().int(),
      equipmentCount: z.number().int(),
      pairCount: z.number().int(),
      ...lowestLimits,
      explanations: ZJsonObject,
    }),
  ),
  pdeLineage: ZPdeLineage,
  units: ZLimitUnits,
  uncomputable: ZLeftOut,
  historyStartsAt: ZHistoryStartsAt,
});

export const ZProductionPair = z.object({
  previous: z.string(),
  next: z.string(),
  governing: z.string().nullable(),
  maco: ZOrNull,
  sal: ZOrNull,
  swab: ZOrNull,
  rinse: ZOrNull,
  swabBasis: ZSampleLimitBasis.nullable(),
  rinseBasis: ZSampleLimitBasis.nullable(),
});

export const ZProductionPairs = z.object({
  pairs: z.array(ZProductionPair),
  units: ZLimitUnits,
  uncomputable: ZLeftOut,
  historyStartsAt: ZHistoryStartsAt,
});

/** GET limits/input: the engine's input (core/limits/model.ts) and what was left out of it. */
export const ZLimitsInputAnswer = z.object({
  input: ZJsonObject,
  uncomputable: ZLeftOut,
  historyStartsAt: ZHistoryStartsAt,
});

/** GET mac-matrix/explain and limits/productions/{id}/explain. */
export const ZPairExplanationAnswer = z.object({
  explanation: ZJsonObject,
  historyStartsAt: ZHistoryStartsAt,
});

export const ZWorstCaseRanking = z.object({
  products: z.array(
    z.object({
      rank: z.number().int(),
      id: z.string(),
      scores: z.record(z.string(), z.number()),
      score: ZOrNull,
      lowestMaco: ZOrNull,
      derivation: ZJsonObject,
    }),
  ),
  perEquipment: z.record(z.string(), z.string().nullable()),
  criteria: z.array(z.object({ attribute: z.string(), worst: z.enum(['highest', 'lowest']) })),
  formula: z.object({ name: z.string(), expression: z.string() }).nullable(),
  /** The signed overrides of the worst case of a train or an item in force (issue 32). */
  overrides: z.array(ZTargetOverride),
  units: z.object({ score: z.literal('points'), lowestMaco: z.literal('mg') }),
  uncomputable: ZLeftOut,
  historyStartsAt: ZHistoryStartsAt,
});

export const ZCleaningAgentLimit = z.object({
  agent: z.string(),
  next: z.string(),
  health: ZOrNull,
  ld50: ZOrNull,
  arl: ZOrNull,
  ceiling: ZOrNull.describe('The agent’s own ppm ceiling × the next batch mass, mg'),
  maco: ZOrNull,
  governing: z.string().nullable(),
  area: ZOrNull,
  sal: ZOrNull,
  derivations: ZJsonObject,
});

export const ZCleaningAgentLimits = z.object({
  limits: z.array(ZCleaningAgentLimit),
  units: z.object({ maco: z.literal('mg'), area: z.literal('sqcm'), sal: z.literal('mg/sqcm') }),
  uncomputable: ZLeftOut,
  historyStartsAt: ZHistoryStartsAt,
});

/** `GET {F}/mac-matrix/solve`: what would make one pair's limit reach a value. */
export const ZGoalSeekQuery = z.object({
  previous: z.string().min(1).max(200),
  next: z.string().min(1).max(200),
  limit: z.enum(['maco', 'sal', 'swabLimit', 'rinseLimit']),
  atLeast: z.coerce
    .number()
    .positive()
    .finite()
    .describe('The value the limit must reach, in the limit’s unit (mg, mg/sqcm, mg/swab, mg/ml)'),
  productionId: z.coerce.number().int().positive().optional(),
});

const ZSolution = z.object({
  status: z
    .enum(['passes', 'solved', 'impossible', 'unaffected'])
    .describe(
      'passes: the limit reaches the value already (value is the bound); solved: it does at value; impossible: no value of this input does; unaffected: this input does not move the limit',
    ),
  value: ZOrNull.describe('null when impossible, or unaffected with no bound'),
  unit: z.string(),
  note: z.string(),
});

export const ZGoalSeekAnswer = z.object({
  requirement: z.object({
    limit: z.enum(['maco', 'sal', 'swabLimit', 'rinseLimit']),
    atLeast: z.number(),
    unit: z.string(),
  }),
  current: ZOrNull.describe('The limit now, in the requirement’s unit'),
  batchSize: ZSolution.describe('The smallest minimum batch size of the next product'),
  area: ZSolution.describe('The largest shared surface area, in sqcm'),
  recovery: ZSolution.describe('The lowest recovery of the sampling, in %'),
});
export type TGoalSeekAnswer = z.infer<typeof ZGoalSeekAnswer>;
