import type { TMicrobialPolicy } from '../schemas/facility-rules.schemas.ts';
import {
  MICROBIAL_UNITS,
  type TMicrobialCensoring,
  type TMicrobialJudgement,
  type TMicrobialKind,
} from '../schemas/verification.schemas.ts';
import { shown } from './judge-result.ts';

/**
 * Microbial results against the facility's microbial limit policy (issue 12,
 * core/verification/README.md "Microbial results"). The policy's limit is the action level
 * (EU GMP Annex 1 (2022) §9.30: alert and action levels; table 6 for surface limits per grade);
 * the alert level is `alertLevelPercentage` of it. Counts are not recovery-corrected: bioburden
 * limits are stated for the count as read.
 */

export type RoomGrade = 'A' | 'B' | 'C' | 'D';

const SURFACE_LABEL = { contactPlate: 'contact plate', swab: 'swab' } as const;

/** The limit (action level) of a kind: the room grade's surface limit, else the ungraded one. */
export function microbialLimit(
  policy: Pick<TMicrobialPolicy, 'gradeLimits' | 'ungradedLimit' | 'rinseLimit' | 'endotoxinLimit'>,
  kind: TMicrobialKind,
  roomGrade: string | null,
): { limit: number; unit: string; limitSource: string } {
  const unit = MICROBIAL_UNITS[kind];
  if (kind === 'rinse') return { limit: policy.rinseLimit, unit, limitSource: 'Final rinse' };
  if (kind === 'endotoxin')
    return { limit: policy.endotoxinLimit, unit, limitSource: 'Endotoxin, final rinse' };
  const grade = roomGrade && roomGrade in policy.gradeLimits ? (roomGrade as RoomGrade) : null;
  return grade
    ? {
        limit: policy.gradeLimits[grade][kind],
        unit,
        limitSource: `Grade ${grade} ${SURFACE_LABEL[kind]}`,
      }
    : { limit: policy.ungradedLimit[kind], unit, limitSource: `Ungraded ${SURFACE_LABEL[kind]}` };
}

export interface JudgeMicrobialInput {
  kind: TMicrobialKind;
  censoring: TMicrobialCensoring;
  /** The count, or the bound it is censored at, in the kind's unit. */
  rawValue: number;
  limit: number;
  limitSource: string;
  alertLevelPercentage: number;
}

/**
 * Pass, Alert or Fail:
 * - '=': Fail above the limit; Alert at or above the alert level (the limit itself included);
 *   else Pass. A limit of 0 (grade A: no growth) passes only a count of 0.
 * - '< LOD' (no growth, nothing detected): judged on the highest value it can stand for. A
 *   colony count below b is at most ⌈b⌉ − 1 colonies (below 1 CFU is 0: no growth passes grade
 *   A); endotoxin below b is below b. Fail when that exceeds the limit (the method cannot show
 *   the limit is met), else Pass: nothing was detected, so no alert.
 * - '> upper limit' (too numerous to count): the value lies above the bound, unknown how far.
 *   Always Fail: at or above the limit the value exceeds it; below the limit it may still lie
 *   anywhere above the bound, so it does not show the limit is met (a retest with dilution can).
 */
export function judgeMicrobial(input: JudgeMicrobialInput): TMicrobialJudgement {
  const { kind, censoring, rawValue, limit, limitSource, alertLevelPercentage } = input;
  const unit = MICROBIAL_UNITS[kind];
  const u = (value: number) => `${shown(value)} ${unit}`;
  const percentOf = (value: number): number | null =>
    limit > 0 ? (value / limit) * 100 : value === 0 ? 0 : null;
  const alertAt = (limit * alertLevelPercentage) / 100;
  const derivation = [
    `Reported: ${censoring === '=' ? '' : `${censoring} `}${u(rawValue)}`,
    `Limit (action level): ${u(limit)} (${limitSource})`,
    `Alert level: ${shown(alertLevelPercentage)} % of the limit = ${u(alertAt)}`,
  ];
  const percent = percentOf(rawValue);
  const percentText =
    percent === null ? 'above a limit of 0' : `${u(rawValue)} ÷ ${u(limit)} = ${shown(percent)} %`;
  const done = (judgement: TMicrobialJudgement['judgement'], why: string): TMicrobialJudgement => ({
    limit,
    unit,
    limitSource,
    alertLevelPercentage,
    percentOfLimit: percent,
    censoredBelow: censoring === '< LOD',
    judgement,
    derivation: [...derivation, `Percent of limit: ${percentText}`, `${judgement}: ${why}`],
  });
  if (censoring === '< LOD') {
    const highest = kind === 'endotoxin' ? rawValue : Math.max(Math.ceil(rawValue) - 1, 0);
    const stated =
      kind === 'endotoxin' ? `below ${u(rawValue)}` : `at most ${u(highest)} (no growth above it)`;
    if (highest > limit)
      return done('Fail', `the value is ${stated}, which does not show the limit is met`);
    return done('Pass', `nothing detected: the value is ${stated}, within the limit`);
  }
  if (censoring === '> upper limit') {
    if (rawValue >= limit)
      return done('Fail', `the value lies above ${u(rawValue)}, at or above the limit`);
    return done(
      'Fail',
      `the value lies above ${u(rawValue)}, unknown how far, which does not show the limit is met; retest with dilution`,
    );
  }
  if (rawValue > limit) return done('Fail', 'above the limit');
  if (percent !== null && percent >= alertLevelPercentage)
    return done('Alert', `at or above the alert level of ${shown(alertLevelPercentage)} %`);
  return done('Pass', 'below the alert level');
}
