import { SAMPLE_TYPE_LABELS } from '#core/labels/enum-labels.ts';
import type { EntityDef } from '../entity.ts';

/**
 * A sample taken at a sampling location of an item of equipment: a child of the location,
 * named once under it. Its calls are the spec's own (…/sampling-locations/{id}/samples,
 * server/modules/equipment-extras), its writes the record store's.
 */
export const samplesDef = {
  key: 'samples',
  label: 'Sample',
  pluralLabel: 'Samples',
  path: 'samples',
  table: 'samples',
  resource: 'SwabLocation',
  domain: 'Sample',
  scope: { parent: 'samplingLocationId' },
  description:
    'Samples at a sampling location: swab or rinse, the test, the method and the sample number.',
  fields: [
    { name: 'equipmentId', label: 'Equipment', kind: 'integer', required: true },
    { name: 'samplingLocationId', label: 'Sampling location', kind: 'integer', required: true },
    { name: 'name', label: 'Name', kind: 'text', required: true, max: 200 },
    {
      name: 'sampleType',
      label: 'Sample type',
      kind: 'enum',
      options: ['swab', 'rinse'],
      optionLabels: SAMPLE_TYPE_LABELS,
      required: true,
    },
    { name: 'analyticalTest', label: 'Analytical test', kind: 'text' },
    {
      name: 'analyticalMethodId',
      label: 'Analytical method',
      kind: 'reference',
      entity: 'analyticalMethods',
    },
    {
      name: 'microbialMethodId',
      label: 'Microbial method',
      kind: 'reference',
      entity: 'microbialMethods',
    },
    {
      name: 'swabArea',
      label: 'Swab area',
      kind: 'quantity',
      measure: 'surfaceArea',
      positive: true,
    },
    {
      name: 'rinseVolume',
      label: 'Rinse volume',
      kind: 'quantity',
      measure: 'volume',
      positive: true,
    },
    // The sample's own number (the spec's field name; its duplicate message keeps its words).
    { name: 'batchNumber', label: 'Sample number', kind: 'text', max: 100 },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['name'],
  search: ['name', 'batchNumber'],
  listColumns: ['name', 'sampleType', 'batchNumber'],
} as const satisfies EntityDef<string>;
