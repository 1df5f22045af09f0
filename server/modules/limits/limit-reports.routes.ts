import { z } from 'zod';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import {
  equipmentLimits,
  explainProductionPair,
  productionLimits,
  productionPairs,
  worstCaseRanking,
} from './limit-reports.service.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import { ZAsOfQuery } from '#core/schemas/versions.schemas.ts';
import {
  LIMIT_UNITS,
  ZEquipmentLimits,
  ZPairExplanationAnswer,
  ZProductionLimits,
  ZProductionPairs,
  ZWorstCaseRanking,
} from '#core/schemas/limit-reports.schemas.ts';

const base = '/api/v2/plans/:plan/facilities/:facility/limits';
const tags = ['limits'];
const ZProductionParams = ZFacilityParams.extend({
  productionId: ZId,
});
const leftOutDescription =
  '`uncomputable` lists the products and equipment whose stored data the engine cannot compute with, and why; they are left out and the rest is computed.';
const asOfDescription =
  '`asOf` (ISO date-time) answers with the facility’s data and the policy approved at that moment; a record made before versions were kept and changed since counts as first kept, and `historyStartsAt` then says from which moment.';
const explanationsDescription = `\`explanations\` holds the derivation of every pair that set one of these numbers, keyed \`previous → next\` (as GET mac-matrix/explain answers it, with the swab and rinse limits). ${asOfDescription}`;

export function registerLimitReportRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);

  r.get(
    `${base}/equipment`,
    {
      preHandler: permit('EquipmentWiseCleaningLimit', 'Get'),
      schema: {
        tags,
        summary: 'Equipment limits: the lowest MACO, SAL, swab and rinse limit of each item',
        description: `For each equipment item in at least one pair of the MAC matrix: the lowest of each limit over the pairs that share the item, and the pair that governs it. Swab and rinse limits use the facility's first swab and rinse sampling types (swab area, rinse volume) and the Chemical policy's recovery; null without one. ${explanationsDescription} ${leftOutDescription}`,
        params: ZFacilityParams,
        querystring: ZAsOfQuery,
        response: { 200: ZEquipmentLimits },
      },
    },
    async (request) => ({
      ...(await equipmentLimits(db, request.params.facility, request.query)),
      units: LIMIT_UNITS,
    }),
  );

  r.get(
    `${base}/productions`,
    {
      preHandler: permit('RiskCalculation', 'Get'),
      schema: {
        tags,
        summary: 'Production limits: the governing MACO and lowest limits of each production',
        description: `For each production, the MAC matrix of its own products on its own equipment: the lowest (governing) MACO and the lowest SAL, swab and rinse limits over its pairs, each with the pair that set it. ${explanationsDescription} ${leftOutDescription} (over every production, each once)`,
        params: ZFacilityParams,
        querystring: ZAsOfQuery,
        response: { 200: ZProductionLimits },
      },
    },
    async (request) => ({
      ...(await productionLimits(db, request.params.facility, request.query)),
      units: LIMIT_UNITS,
    }),
  );

  r.get(
    `${base}/productions/:productionId/pairs`,
    {
      preHandler: permit('RiskCalculation', 'Get'),
      schema: {
        tags,
        summary: 'The pairs of one production’s own MAC matrix',
        description: `Every previous → next pair of the production’s products on its equipment, with the governing criterion, MACO, SAL, swab and rinse limit (null when none). 404 for a production not in the facility. ${asOfDescription} ${leftOutDescription}`,
        params: ZProductionParams,
        querystring: ZAsOfQuery,
        response: { 200: ZProductionPairs },
      },
    },
    async (request) => ({
      ...(await productionPairs(
        db,
        request.params.facility,
        request.params.productionId,
        request.query,
      )),
      units: LIMIT_UNITS,
    }),
  );

  r.get(
    `${base}/productions/:productionId/explain`,
    {
      preHandler: permit('RiskCalculation', 'Get'),
      schema: {
        tags,
        summary: 'How one pair’s limits were reached within a production',
        description: `As GET mac-matrix/explain, on the production’s own products and equipment and with the swab and rinse limits of the facility’s sampling types. ${asOfDescription} 422 DataValidationError on \`previous\` or \`next\` for a product left out because its stored data cannot be computed, with the reason.`,
        params: ZProductionParams,
        querystring: ZAsOfQuery.extend({
          previous: z.string().min(1).max(200),
          next: z.string().min(1).max(200),
        }),
        response: { 200: ZPairExplanationAnswer },
      },
    },
    async (request) =>
      explainProductionPair(
        db,
        request.params.facility,
        request.params.productionId,
        request.query.previous,
        request.query.next,
        request.query,
      ),
  );

  r.get(
    `${base}/worst-case-ranking`,
    {
      preHandler: permit('RiskCalculation', 'Get'),
      schema: {
        tags,
        summary: 'Worst-case ranking of the facility’s products',
        description: `Every product scored by the risk scales (solubility and cleanability of its worst active, dose and toxicity bands of its lowest therapeutic dose and PDE, the HBEL toxicity score) under the facility’s risk categories where one matches a factor, combined by the risk formula of its "Highest RPN" selection criterion (the APIC worst-case rating without one), then ranked by its selection criteria in priority order (highest score, then lowest MACO, without any). Each score carries its derivation; \`perEquipment\` names the worst-case product of each equipment item. ${asOfDescription} ${leftOutDescription}`,
        params: ZFacilityParams,
        querystring: ZAsOfQuery,
        response: { 200: ZWorstCaseRanking },
      },
    },
    async (request) => ({
      ...(await worstCaseRanking(db, request.params.facility, request.query)),
      units: { score: 'points' as const, lowestMaco: 'mg' as const },
    }),
  );
}
