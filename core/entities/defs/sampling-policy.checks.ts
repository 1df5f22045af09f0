import type { PropertyError } from '#core/errors/errors.ts';

/* The rules across fields of the sampling policy declarations (EntityDef.check): pure, so the
   form, the API and the import check alike. */

type Values = Record<string, unknown>;

const given = (value: unknown) => value !== null && value !== undefined;

/**
 * A policy says which locations are sampled in one way only (a count, or a risk score), and
 * carries the default its sample type needs.
 */
export function policyProblems(values: Values): PropertyError[] {
  const problems: PropertyError[] = [];
  const byCount = given(values.locationsPerEquipment);
  const byScore = given(values.minimumRiskScore);
  if (!byCount && !byScore)
    problems.push({
      property: 'locationsPerEquipment',
      constraints: {
        required: 'Give the number of locations per equipment or a minimum risk score',
      },
    });
  if (byCount && byScore)
    problems.push({
      property: 'minimumRiskScore',
      constraints: {
        exclusive: 'Give either the number of locations per equipment or a minimum risk score',
      },
    });
  if (values.sampleType === 'swab' && !given(values.swabArea))
    problems.push({
      property: 'swabArea',
      constraints: { required: 'A swab policy needs the default swab area' },
    });
  if (values.sampleType === 'rinse' && !given(values.rinseVolume))
    problems.push({
      property: 'rinseVolume',
      constraints: { required: 'A rinse policy needs the default rinse volume' },
    });
  return problems;
}

/** An attribute's options tell locations apart: two at least, each label once. */
export function attributeProblems(values: Values): PropertyError[] {
  const options = (values.options ?? []) as { label: string }[];
  const problems: PropertyError[] = [];
  if (options.length < 2)
    problems.push({
      property: 'options',
      constraints: { minItems: 'An attribute needs at least two scored options' },
    });
  const seen = new Set<string>();
  options.forEach((option, index) => {
    const key = option.label.trim().toLowerCase();
    if (seen.has(key))
      problems.push({
        property: `options[${index}].label`,
        constraints: { unique: `Option '${option.label}' is listed twice` },
      });
    seen.add(key);
  });
  return problems;
}
