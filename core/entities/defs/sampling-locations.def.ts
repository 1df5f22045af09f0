import { SAMPLE_TYPE_LABELS } from '#core/labels/enum-labels.ts';
import { MATERIALS } from '#core/schemas/equipment-extras.schemas.ts';
import type { EntityDef } from '../entity.ts';

/**
 * A spot of an item of equipment that is swabbed or rinsed, with its risk assessment: a child
 * of the equipment, named once under it. Its calls are the spec's own
 * (…/equipments/{id}/sampling-locations, server/modules/equipment-extras), its writes the
 * record store's; the assessment fields are written only by the assess call.
 */
export const samplingLocationsDef = {
  key: 'samplingLocations',
  label: 'Sampling location',
  pluralLabel: 'Sampling locations',
  path: 'sampling-locations',
  table: 'sampling_locations',
  resource: 'SwabLocation',
  domain: 'SamplingLocation',
  scope: { parent: 'equipmentId' },
  description: 'Sampling locations of an item of equipment, each with a risk assessment.',
  fields: [
    { name: 'equipmentId', label: 'Equipment', kind: 'integer', required: true },
    { name: 'name', label: 'Name', kind: 'text', required: true, max: 200 },
    { name: 'description', label: 'Description', kind: 'longText' },
    {
      name: 'sampleType',
      label: 'Sample type',
      kind: 'enum',
      options: ['swab', 'rinse'],
      optionLabels: SAMPLE_TYPE_LABELS,
      required: true,
    },
    {
      name: 'samplingTypeId',
      label: 'Sampling type',
      kind: 'reference',
      entity: 'samplingTypes',
    },
    {
      name: 'swabArea',
      label: 'Swab area',
      kind: 'quantity',
      measure: 'surfaceArea',
      positive: true,
    },
    { name: 'material', label: 'Material', kind: 'enum', options: MATERIALS },
    // Where it is on a picture of its equipment (issue 31): fractions of the width and height.
    { name: 'imageId', label: 'Equipment picture', kind: 'integer' },
    { name: 'x', label: 'Across the picture (0–1)', kind: 'number', min: 0, max: 1 },
    { name: 'y', label: 'Down the picture (0–1)', kind: 'number', min: 0, max: 1 },
    { name: 'assessment', label: 'Risk assessment', kind: 'json' },
    { name: 'riskScore', label: 'Risk score', kind: 'integer' },
    { name: 'riskLevel', label: 'Risk level', kind: 'enum', options: ['Low', 'Medium', 'High'] },
    { name: 'assessedAt', label: 'Assessed at', kind: 'text' },
    { name: 'assessedBy', label: 'Assessed by', kind: 'integer' },
  ],
  unique: ['name'],
  search: ['name'],
  listColumns: ['name', 'sampleType', 'riskLevel'],
} as const satisfies EntityDef<string>;
