import { validationError, type PropertyError } from '#core/errors/errors.ts';
import {
  assessLocation,
  type MATERIALS,
  type ZAssessRequest,
} from '#core/schemas/equipment-extras.schemas.ts';
import {
  assessByAttributes,
  type AssessmentAttribute,
} from '#core/schemas/sampling-attributes.schemas.ts';
import type { z } from 'zod';
import type { Queryable } from '#server/db/db.ts';

type AssessInput = Omit<z.infer<typeof ZAssessRequest>, 'equipmentId'>;
type Material = (typeof MATERIALS)[number];
const FACTORS = ['hardToClean', 'inaccessibility', 'productContact'] as const;

async function activeAttributes(q: Queryable, facilityId: number) {
  const rows = await q.query<{ id: number; name: string; weight: number; options: unknown }>(
    `select id, name, weight, options from sampling_attributes
      where facility_id = $1 and archived_at is null order by lower(name), id`,
    [facilityId],
  );
  return rows.map((row): AssessmentAttribute => ({
    id: Number(row.id),
    name: row.name,
    weight: Number(row.weight),
    options: row.options as AssessmentAttribute['options'],
  }));
}

/**
 * The risk assessment of a location: on the facility's active sampling-assessment attributes
 * when it has some, else on the four fixed factors (hard to clean, inaccessibility, material,
 * product contact) as before attributes existed.
 */
export async function assessmentOf(
  q: Queryable,
  facilityId: number,
  input: AssessInput,
  materialOf: () => Material | null,
) {
  const attributes = await activeAttributes(q, facilityId);
  if (attributes.length > 0) return byAttributes(attributes, input);
  if (input.ratings !== undefined)
    throw validationError([
      {
        property: 'ratings',
        constraints: { attributes: 'This facility has no sampling-assessment attributes' },
      },
    ]);
  const missing = FACTORS.filter((name) => input[name] === undefined);
  if (missing.length > 0)
    throw validationError(
      missing.map((property) => ({ property, constraints: { required: 'Required' } })),
    );
  const material = input.material ?? materialOf();
  if (!material)
    throw validationError([
      {
        property: 'material',
        constraints: {
          required: 'Give the material: neither the location nor the equipment records one',
        },
      },
    ]);
  return assessLocation({
    hardToClean: input.hardToClean!,
    inaccessibility: input.inaccessibility!,
    productContact: input.productContact!,
    material,
    comment: input.comment,
  });
}

function byAttributes(attributes: AssessmentAttribute[], input: AssessInput) {
  const problems: PropertyError[] = [];
  const factors = [...FACTORS, 'material'] as const;
  for (const name of factors)
    if (input[name] !== undefined)
      problems.push({
        property: name,
        constraints: {
          attributes:
            'This facility assesses locations on its sampling-assessment attributes; send ratings',
        },
      });
  const byId = new Map(attributes.map((a) => [a.id, a]));
  const chosen = new Map<number, string>();
  (input.ratings ?? []).forEach((rating, index) => {
    const attribute = byId.get(rating.attributeId);
    if (!attribute) {
      problems.push({
        property: `ratings[${index}].attributeId`,
        constraints: {
          reference: 'No such sampling-assessment attribute in use in this facility',
        },
      });
      return;
    }
    if (chosen.has(attribute.id))
      problems.push({
        property: `ratings[${index}].attributeId`,
        constraints: { unique: `'${attribute.name}' is rated twice` },
      });
    const option = attribute.options.find(
      (o) => o.label.toLowerCase() === rating.option.toLowerCase(),
    );
    if (!option)
      problems.push({
        property: `ratings[${index}].option`,
        constraints: {
          option: `must be one of ${attribute.options.map((o) => o.label).join(', ')}`,
        },
      });
    else chosen.set(attribute.id, option.label);
  });
  const unrated = problems.length === 0 ? attributes.filter((a) => !chosen.has(a.id)) : [];
  if (unrated.length > 0)
    problems.push({
      property: 'ratings',
      constraints: { required: `Rate every attribute: ${unrated.map((a) => a.name).join(', ')}` },
    });
  if (problems.length > 0) throw validationError(problems);
  return assessByAttributes(attributes, chosen, input.comment);
}
