import { z } from 'zod';
import { MEASURES, normalizeUnit, type MeasureName } from '../units/measures.ts';
import { convertValue } from '../units/quantity.ts';
import { BASE_UNIT, kindOf, type Unit } from '../units/units.ts';
import { madeOnce } from './made-once.ts';

interface FieldBase {
  /** The property name in requests and responses (spec names where the spec gives them). */
  name: string;
  label: string;
  required?: boolean;
  /** Shown in the OpenAPI document and as the form's help text. */
  description?: string;
}

export type FieldDef = FieldBase &
  /** `valueLabels`: words for a value that is a code (a custom report's column key). */
  (
    | {
        kind: 'text';
        max?: number;
        unique?: boolean;
        check?: TextCheck;
        valueLabels?: Readonly<Record<string, string>>;
      }
    | { kind: 'longText'; max?: number; check?: TextCheck }
    | { kind: 'number'; min?: number; max?: number; positive?: boolean }
    | { kind: 'integer'; min?: number; max?: number }
    | { kind: 'boolean' }
    /** `optionLabels`: plain words a form shows for an option (the value is sent as it is). */
    | { kind: 'enum'; options: readonly string[]; optionLabels?: Readonly<Record<string, string>> }
    | { kind: 'quantity'; measure: MeasureName; positive?: boolean }
    /**
     * The id of another entity's row in the same facility (several with `multiple`); `ordered`:
     * the order of the ids means something (a train's equipment, as the product passes through).
     */
    | { kind: 'reference'; entity: string; multiple?: boolean; ordered?: true }
    /** Rows of sub-fields kept with the record, such as a product's actives and amounts. */
    | { kind: 'list'; of: readonly FieldDef[] }
    /** A value the server works out and keeps as it is (an assessment); no form sends it. */
    | { kind: 'json' }
  );

/**
 * A rule a text must follow beyond its length (a date, a formula): the problem with the value,
 * or undefined when it is fine. Pure, so that the form and the server check alike.
 */
export type TextCheck = (value: string) => string | undefined;

function checked(schema: z.ZodString, check: TextCheck | undefined): z.ZodType {
  if (!check) return schema;
  return schema.superRefine((value, ctx) => {
    const problem = check(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });
}

/** snake_case column of a field: surfaceArea → surface_area. */
export function columnOf(field: Pick<FieldDef, 'name'>): string {
  return field.name.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);
}

function quantitySchema(measure: MeasureName, positive: boolean | undefined) {
  const allowed = MEASURES[measure].allowed as readonly string[];
  const value = z.number({ error: 'must be a number' }).finite('must be a finite number');
  return z
    .object({
      value: positive
        ? value.positive('must be greater than 0')
        : value.nonnegative('must not be negative'),
      unit: z
        .string()
        .overwrite(normalizeUnit)
        .refine((unit) => allowed.includes(unit), {
          message: `must be one of ${allowed.join(', ')} (${MEASURES[measure].label})`,
        }),
    })
    .superRefine((q, ctx) => {
      // A number that is only positive until it is converted (5e-324 ng, 1e308 kg) is no
      // quantity the limits engine can compute with (contracts/limits.md).
      if (!allowed.includes(q.unit) || !Number.isFinite(q.value) || q.value === 0) return;
      const unit = q.unit as Unit;
      const base = convertValue(q.value, unit, BASE_UNIT[kindOf(unit)]);
      if (!Number.isFinite(base) || base <= 0 || base > 1e100)
        ctx.addIssue({
          code: 'custom',
          path: ['value'],
          message: `${q.value} ${q.unit} is outside the range the limits engine computes in`,
        });
    });
}

/**
 * The schema of a field's value where no field is required (a record as read, an edit), made
 * once per field: a declared record's read and edit schemas share it.
 */
export const optionalFieldSchema = madeOnce((field: FieldDef): z.ZodType =>
  fieldSchema({ ...field, required: false } as FieldDef),
);

/** The zod schema of one field's value; optional unless required. */
export function fieldSchema(field: FieldDef): z.ZodType {
  let schema: z.ZodType;
  switch (field.kind) {
    case 'text':
      schema = checked(
        z
          .string()
          .trim()
          .min(1, `${field.label} is required`)
          .max(field.max ?? 200),
        field.check,
      );
      break;
    case 'longText':
      schema = checked(
        z
          .string()
          .trim()
          .max(field.max ?? 5000),
        field.check,
      );
      break;
    case 'number': {
      let n = z.number({ error: 'must be a number' }).finite('must be a finite number');
      if (field.positive) n = n.positive('must be greater than 0');
      if (field.min !== undefined) n = n.min(field.min);
      if (field.max !== undefined) n = n.max(field.max);
      schema = n;
      break;
    }
    case 'integer': {
      let n = z.number({ error: 'must be a whole number' }).int('must be a whole number');
      if (field.min !== undefined) n = n.min(field.min);
      if (field.max !== undefined) n = n.max(field.max);
      schema = n;
      break;
    }
    case 'boolean':
      schema = z.boolean();
      break;
    case 'enum':
      schema = z.enum(field.options as [string, ...string[]]);
      break;
    case 'quantity':
      schema = quantitySchema(field.measure, field.positive);
      break;
    case 'reference':
      schema = field.multiple
        ? z.array(z.number().int().positive()).max(10_000)
        : z.number().int().positive();
      break;
    case 'list':
      schema = z
        .array(z.object(Object.fromEntries(field.of.map((f) => [f.name, fieldSchema(f)]))))
        .max(1000);
      break;
    case 'json':
      schema = z.record(z.string(), z.unknown());
      break;
  }
  return field.required ? schema : schema.nullable().optional();
}
