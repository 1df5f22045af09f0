import { z } from 'zod';
import { AppError } from '#core/errors/errors.ts';
import { compileLimits } from '#core/limits/compile.ts';
import { explainPair } from '#core/limits/explain.ts';
import { goalSeek, isPair, type Solution } from '#core/limits/solver.ts';
import { runMatrix } from '#core/limits/matrix.ts';
import { equipmentWiseLimits, productWiseLimits } from '#core/limits/worst-case.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { ZAsOfQuery, ZHistoryStartsAt } from '#core/schemas/versions.schemas.ts';
import { historyNote } from '#server/entities/entity-store.ts';
import { ZUncomputable } from '#core/schemas/mac-matrix.schemas.ts';
import { cleaningAgentLimitRows } from './cleaning-agent-limits.ts';
import { computableLimitsInput, refuseLeftOut } from './computable-input.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import {
  ZCleaningAgentLimits,
  ZGoalSeekAnswer,
  ZGoalSeekQuery,
  ZLimitsInputAnswer,
  ZPairExplanationAnswer,
} from '#core/schemas/limit-reports.schemas.ts';

const base = '/api/v2/plans/:plan/facilities/:facility';
const tags = ['limits'];
// Engine results carry NaN for "none"; JSON has no NaN, so they travel as null.
const ZNumberOrNull = z.number().nullable();
const nullable = (v: number) => (Number.isFinite(v) ? v : null);

export function registerLimitViewRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);

  r.get(
    `${base}/mac-matrix/explain`,
    {
      preHandler: permit('RiskCalculation', 'Get'),
      schema: {
        tags,
        summary: 'How one pair’s limits were reached',
        description:
          'For a previous → next pair: every criterion, MACO, area, SAL, swab and rinse limits and the limit in the next product as a derivation (formula, each input with its unit and the record it was entered on, intermediate values, result), plus each active on its own. Names are the products’ names. With productionId, the pair as that production’s own matrix has it (its equipment only), as the matrix under that filter shows it. `asOf` (ISO date-time or date): the facility’s data and the policy approved at that moment.',
        params: ZFacilityParams,
        querystring: ZAsOfQuery.extend({
          previous: z.string().min(1).max(200),
          next: z.string().min(1).max(200),
          productionId: z.coerce.number().int().positive().optional(),
        }),
        response: { 200: ZPairExplanationAnswer },
      },
    },
    async (request) => {
      const { previous, next, productionId, asOf } = request.query;
      const read = await computableLimitsInput(db, request.params.facility, {
        productionId,
        asOf,
      });
      const { input, uncomputable } = read;
      refuseLeftOut(uncomputable, previous, next);
      const explanation = explainPair(input, previous, next);
      if (!explanation) {
        throw new AppError(
          'NotFoundError',
          'These products are not both in the facility, or share no equipment',
        );
      }
      return {
        explanation: JSON.parse(JSON.stringify(explanation)) as Record<string, unknown>,
        ...historyNote([read]),
      };
    },
  );

  r.get(
    `${base}/mac-matrix/solve`,
    {
      preHandler: permit('RiskCalculation', 'Get'),
      schema: {
        tags,
        summary: 'What would make one pair’s limit reach a value (goal-seek)',
        description:
          'For a previous → next pair and a value its MACO, surface, swab or rinse limit must reach (`atLeast`, in the limit’s unit: a method’s LOQ, a result found): the smallest minimum batch size of the next product, the largest shared area and the lowest sampling recovery at which it does, each with the other inputs as they are, or why none does (a product limit governs, the residue limit or a per-sample cap is below it). With productionId, the pair as that production’s matrix has it.',
        params: ZFacilityParams,
        querystring: ZGoalSeekQuery,
        response: { 200: ZGoalSeekAnswer },
      },
    },
    async (request) => {
      const { previous, next, productionId, limit, atLeast } = request.query;
      const { input, uncomputable } = await computableLimitsInput(db, request.params.facility, {
        productionId,
      });
      refuseLeftOut(uncomputable, previous, next);
      // Compiled once: the pair's check and its three answers read the same matrix.
      const compiled = compileLimits(input);
      if (!isPair(compiled, previous, next))
        throw new AppError(
          'NotFoundError',
          'These products are not both in the facility, or share no equipment',
        );
      const answer = goalSeek(compiled, previous, next, { limit, atLeast });
      // JSON has no NaN or Infinity: an impossible or unbounded answer travels as null.
      const plain = (s: Solution) => ({ ...s, value: nullable(s.value) });
      return {
        requirement: answer.requirement,
        current: nullable(answer.current),
        batchSize: plain(answer.batchSize),
        area: plain(answer.area),
        recovery: plain(answer.recovery),
      };
    },
  );

  r.get(
    `${base}/limits/input`,
    {
      preHandler: permit('RiskCalculation', 'Get'),
      schema: {
        tags,
        summary:
          'The limits engine’s input built from the facility’s master data (for what-if in the browser)',
        description:
          'Products with their actives, equipment with surface areas, trains from the productions and the approved Chemical policy (the version in progress with `policy=draft`, the data and policy of a past moment with `asOf`), in the shape of the limits command-line contract (`input` is valid input of the command line). The client changes a value and runs the same engine to show which limits move before anything is saved. `uncomputable` lists what the engine cannot compute with, left out of `input`.',
        params: ZFacilityParams,
        querystring: ZAsOfQuery.extend({
          productionId: ZId.optional(),
          policy: z
            .enum(['approved', 'draft'])
            .optional()
            .describe(
              'draft: compute with the Chemical policy’s version in progress (Being Built, Being Reviewed or Being Approved) instead of the approved one, to preview what it would change; approved (default) otherwise',
            ),
        }),
        response: { 200: ZLimitsInputAnswer },
      },
    },
    async (request) => {
      const { productionId, asOf, policy } = request.query;
      const read = await computableLimitsInput(db, request.params.facility, {
        productionId,
        asOf,
        policy,
      });
      return {
        input: read.input as unknown as Record<string, unknown>,
        uncomputable: read.uncomputable,
        ...historyNote([read]),
      };
    },
  );

  r.get(
    `${base}/limits/worst-cases`,
    {
      preHandler: permit('RiskCalculation', 'Get'),
      schema: {
        tags,
        summary:
          'Product-wise and equipment-wise limits (the worst pair of each), for the facility or one production',
        description:
          '`asOf` (ISO date-time or date): the facility’s data and the policy approved at that moment, as the MAC matrix answers it.',
        params: ZFacilityParams,
        querystring: ZAsOfQuery.extend({ productionId: ZId.optional() }),
        response: {
          200: z.object({
            products: z.array(
              z.object({
                id: z.string(),
                lowestMaco: ZNumberOrNull,
                worstNext: z.string().nullable(),
                lowestSal: ZNumberOrNull,
                ownTrainSal: ZNumberOrNull,
              }),
            ),
            equipment: z.array(
              z.object({
                id: z.string(),
                lowestSal: ZNumberOrNull,
                governingPair: z.tuple([z.string(), z.string()]).nullable(),
              }),
            ),
            units: z.object({ maco: z.literal('mg'), sal: z.literal('mg/sqcm') }),
            uncomputable: z.array(ZUncomputable),
            historyStartsAt: ZHistoryStartsAt,
          }),
        },
      },
    },
    async (request) => {
      const read = await computableLimitsInput(db, request.params.facility, {
        productionId: request.query.productionId,
        asOf: request.query.asOf,
      });
      const { input, uncomputable } = read;
      const m = compileLimits(input);
      const summary = runMatrix(m);
      return {
        products: productWiseLimits(m, summary).map((p) => ({
          ...p,
          lowestMaco: nullable(p.lowestMaco),
          lowestSal: nullable(p.lowestSal),
          ownTrainSal: nullable(p.ownTrainSal),
        })),
        equipment: equipmentWiseLimits(m, summary).map((e) => ({
          ...e,
          lowestSal: nullable(e.lowestSal),
        })),
        units: { maco: 'mg' as const, sal: 'mg/sqcm' as const },
        uncomputable,
        ...historyNote([read]),
      };
    },
  );

  r.get(
    `${base}/limits/cleaning-agents`,
    {
      preHandler: permit('EquipmentWiseCleaningAgentLimit', 'Get'),
      schema: {
        tags,
        summary:
          'Cleaning-agent limits in every product that may follow, under the Detergent policy',
        description:
          '`asOf` (ISO date-time or date): the cleaning agents, the facility’s data and the Detergent policy approved at that moment.',
        params: ZFacilityParams,
        querystring: ZAsOfQuery,
        response: { 200: ZCleaningAgentLimits },
      },
    },
    async (request) => cleaningAgentLimitRows(db, request.params.facility, request.query),
  );
}
