import { activesDef } from '#core/entities/defs/index.ts';
import type { FieldDef } from '#core/entities/field.ts';
import type { z } from 'zod';
import type { ZApiProperty } from '#core/schemas/additional-properties.schemas.ts';
import { MEASURES } from '#core/units/measures.ts';
import type { Queryable } from '#server/db/db.ts';
import { listDefinitions, type FacilityScope } from './additional-properties.service.ts';

type ApiProperty = z.infer<typeof ZApiProperty>;

function builtIn(field: FieldDef): ApiProperty | null {
  const base = {
    key: field.name,
    label: field.label,
    measure: null,
    units: [] as string[],
    defaultUnit: null,
    options: [] as string[],
    required: field.required ?? false,
    helpText: field.description ?? '',
    builtIn: true,
  };
  switch (field.kind) {
    case 'text':
    case 'longText':
      return { ...base, kind: 'text' };
    case 'number':
    case 'integer':
      return { ...base, kind: 'number' };
    case 'boolean':
      return { ...base, kind: 'boolean' };
    case 'enum':
      return { ...base, kind: 'select', options: [...field.options] };
    case 'quantity': {
      const measure = MEASURES[field.measure];
      return {
        ...base,
        kind: 'quantity',
        measure: field.measure,
        units: [...measure.allowed],
        defaultUnit: measure.default,
      };
    }
    case 'reference':
      return { ...base, kind: 'reference' };
    case 'list':
    case 'json':
      return null;
  }
}

/** The active's declared fields, then the facility's additional API properties still in use. */
export async function apiProperties(q: Queryable, scope: FacilityScope): Promise<ApiProperty[]> {
  const fields = activesDef.fields as readonly FieldDef[];
  const builtIns = fields.flatMap((field) => builtIn(field) ?? []);
  const additional = (await listDefinitions(q, scope, 'api'))
    .filter((d) => !d.archived)
    .map((d): ApiProperty => {
      const measure = d.measure ? MEASURES[d.measure] : null;
      return {
        key: d.key,
        label: d.label,
        kind: d.kind,
        measure: d.measure,
        units: measure ? [...measure.allowed] : [],
        defaultUnit: measure ? measure.default : null,
        options: d.options,
        required: d.required,
        helpText: d.helpText,
        builtIn: false,
      };
    });
  return [...builtIns, ...additional];
}
