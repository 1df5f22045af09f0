import { validationError, type PropertyError } from '../../../core/errors/errors.ts';
import type { EntityDef } from '../../../core/entities/entity.ts';
import { samplingPolicyDef } from '../../../core/entities/defs/sampling-policy.def.ts';
import type { Queryable } from '../../db/db.ts';
import type { EntityRecord } from '../../entities/entity-store.ts';
import {
  createEntity,
  editableEntity,
  updateEntity,
  type CreateOptions,
  type UpdateOptions,
} from '../../entities/entity-write.ts';

type Values = Record<string, unknown>;

const given = (value: unknown) => value !== null && value !== undefined;

/**
 * A policy says which locations are sampled in one way only (a count, or a risk score), and
 * carries the default its sample type needs.
 */
function policyProblems(values: Values): PropertyError[] {
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
function attributeProblems(values: Values): PropertyError[] {
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

function check(def: EntityDef, values: Values): void {
  const problems = def === samplingPolicyDef ? policyProblems(values) : attributeProblems(values);
  if (problems.length > 0) throw validationError(problems);
}

export async function createRecord(tx: Queryable, options: CreateOptions): Promise<EntityRecord> {
  check(options.def, options.values);
  return createEntity(tx, options);
}

/** The record as the edit would leave it is checked first, under the write's lock. */
export async function editRecord(tx: Queryable, options: UpdateOptions): Promise<EntityRecord> {
  const { def, scope, id, edit, version } = options;
  const before = await editableEntity(tx, def, scope, id, version);
  check(def, { ...before, ...edit });
  return updateEntity(tx, options);
}
