import { z } from 'zod';

/*
 * Risk assessment of a sampling location on the facility's sampling-assessment attributes
 * (spec §3): each attribute has a weight and scored options; the location's risk score is the
 * weighted sum of the chosen options' scores.
 */

export const ZRating = z.object({
  attributeId: z.number().int().positive(),
  option: z.string().trim().min(1, 'Choose an option').max(200),
});

export const ZAttributeAssessment = z.object({
  method: z.literal('attributes'),
  ratings: z.array(
    z.object({
      attributeId: z.number().int(),
      attribute: z.string(),
      option: z.string(),
      score: z.number(),
      weight: z.number(),
    }),
  ),
  maxScore: z.number(),
  comment: z.string().nullable(),
});
export type TAttributeAssessment = z.infer<typeof ZAttributeAssessment>;

export interface AssessmentAttribute {
  id: number;
  name: string;
  weight: number;
  options: readonly { label: string; score: number }[];
}

export type RiskLevel = 'Low' | 'Medium' | 'High';

/**
 * The level is the score's share of the highest score the attributes allow: from two thirds
 * High, from one third Medium, so that it does not depend on how many attributes there are.
 */
export function levelOf(score: number, maxScore: number): RiskLevel {
  if (maxScore <= 0) return 'Low';
  if (score * 3 >= maxScore * 2) return 'High';
  if (score * 3 >= maxScore) return 'Medium';
  return 'Low';
}

/** Ratings must already name each attribute once with one of its options. */
export function assessByAttributes(
  attributes: readonly AssessmentAttribute[],
  chosen: ReadonlyMap<number, string>,
  comment: string | undefined,
): { assessment: TAttributeAssessment; riskScore: number; riskLevel: RiskLevel } {
  const ratings = attributes.map((attribute) => {
    const label = chosen.get(attribute.id);
    const option = attribute.options.find((o) => o.label === label);
    if (!option) throw new Error(`no rating of attribute ${attribute.id}`);
    return {
      attributeId: attribute.id,
      attribute: attribute.name,
      option: option.label,
      score: option.score,
      weight: attribute.weight,
    };
  });
  const riskScore = ratings.reduce((sum, r) => sum + r.weight * r.score, 0);
  const maxScore = attributes.reduce(
    (sum, a) => sum + a.weight * Math.max(0, ...a.options.map((o) => o.score)),
    0,
  );
  return {
    assessment: { method: 'attributes', ratings, maxScore, comment: comment ?? null },
    riskScore,
    riskLevel: levelOf(riskScore, maxScore),
  };
}
