import type { z } from 'zod';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  ZRiskGoalBody,
  ZRiskGoalResponse,
  type ZRiskGoal,
} from '#core/schemas/cleaning-assessments.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { getRule, updateRule, type RuleRef } from '../facility-rules/facility-rules.service.ts';

export type TRiskGoal = z.infer<typeof ZRiskGoal>;

/** The goal's own fields, as stored (facility_rules, kind RiskGoal). */
export interface RiskGoalFields {
  maxRiskScore: number | null;
  minCoveragePercent: number | null;
}

const riskGoalRef: RuleRef<RiskGoalFields> = {
  kind: 'RiskGoal',
  key: '',
  domain: 'RiskGoal',
  // No goal until the facility sets one.
  defaults: { maxRiskScore: null, minCoveragePercent: null },
};

/** What a completed assessment's result counts (ZAssessmentResult.counts), read defensively. */
export interface AssessmentCounts {
  cells?: unknown;
  study?: unknown;
  representative?: unknown;
  highestRiskScore?: unknown;
}

const countOf = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

/**
 * The goal against an assessment's counts. Coverage is the share of product × train cells
 * covered by a study or by their group's representative (a tightened cell is a gap); with no
 * cells nothing is uncovered, so it is 100 %. A goal the facility has not set is neither met
 * nor missed (null).
 */
export function goalAgainst(
  goal: RiskGoalFields,
  assessment: { id: number; counts: AssessmentCounts | null },
): NonNullable<TRiskGoal['current']> {
  const counts = assessment.counts ?? {};
  const cells = countOf(counts.cells);
  const covered = countOf(counts.study) + countOf(counts.representative);
  const coveragePercent = cells > 0 ? Math.round((covered / cells) * 10_000) / 100 : 100;
  const highest = counts.highestRiskScore;
  const highestRiskScore = typeof highest === 'number' && Number.isFinite(highest) ? highest : null;
  return {
    assessmentId: assessment.id,
    highestRiskScore,
    coveragePercent,
    meetsRiskScore:
      goal.maxRiskScore === null || highestRiskScore === null
        ? null
        : highestRiskScore <= goal.maxRiskScore,
    meetsCoverage:
      goal.minCoveragePercent === null ? null : coveragePercent >= goal.minCoveragePercent,
  };
}

/** The facility's latest completed cleaning assessment (one with a result), or null. */
async function latestAssessment(q: Queryable, facilityId: number) {
  const [row] = await q.query<{ id: number; counts: AssessmentCounts | null }>(
    `select id, result -> 'counts' as counts from cleaning_assessments
      where facility_id = $1 and result is not null order by id desc limit 1`,
    [facilityId],
  );
  return row ?? null;
}

/** The facility's risk goal (the defaults at version 0 until set), against its latest assessment. */
export async function riskGoal(q: Queryable, facilityId: number): Promise<TRiskGoal> {
  const rule = await getRule(q, facilityId, riskGoalRef);
  const assessment = await latestAssessment(q, facilityId);
  return {
    ...rule.body,
    version: rule.version,
    updatedAt: rule.updatedAt === null ? null : new Date(rule.updatedAt).toISOString(),
    current: assessment ? goalAgainst(rule.body, assessment) : null,
  };
}

/** `GET`/`POST {F}/risk-goal` (spec §7). */
export function registerRiskGoalRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  const F = '/api/v2/plans/:plan/facilities/:facility';

  r.get(
    `${F}/risk-goal`,
    {
      preHandler: permit('RiskCalculation', 'Get'),
      schema: {
        tags: ['cleaning assessments'],
        summary: "The facility's risk goal, against its latest cleaning assessment",
        description:
          'The highest acceptable risk score of any product/equipment pair and the share of product × train cells that must be covered by studies (by a study or by the group representative), each null when not set; version 0 until the facility sets a goal. `current` compares them with the latest completed cleaning assessment (null when there is none).',
        params: ZFacilityParams,
        response: { 200: ZRiskGoalResponse },
      },
    },
    async (request) => ({ riskGoal: await riskGoal(db, request.params.facility) }),
  );

  r.post(
    `${F}/risk-goal`,
    {
      preHandler: permit('FacilityCleaningEvaluation', 'Generate'),
      schema: {
        tags: ['cleaning assessments'],
        summary: "Set the facility's risk goal, with a reason and the version it was read at",
        description:
          'Without a version for the first goal (version 0); after that the version read, or 409. Audited field by field (domain RiskGoal).',
        params: ZFacilityParams,
        body: ZRiskGoalBody,
        response: { 200: ZRiskGoalResponse },
      },
    },
    async (request) => {
      const { plan, facility } = request.params;
      const { reason, version, maxRiskScore, minCoveragePercent } = request.body;
      await updateRule(
        db,
        actorOf(request),
        { planId: plan, facilityId: facility },
        riskGoalRef,
        { maxRiskScore, minCoveragePercent },
        { reason, version: version ?? 0 },
      );
      return { riskGoal: await riskGoal(db, facility) };
    },
  );
}
