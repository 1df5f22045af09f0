import { SAMPLE_TYPE_LABELS } from '#core/labels/enum-labels.ts';
import type { EntityDef } from '../entity.ts';

/** A way of taking a sample (swab or rinse) with the defaults a new sampling location starts from. */
export const samplingTypesDef = {
  key: 'samplingTypes',
  label: 'Sampling type',
  pluralLabel: 'Sampling types',
  path: 'sampling-types',
  table: 'sampling_types',
  resource: 'SamplingMethod',
  domain: 'SamplingType',
  description:
    'Sampling types: swab or rinse with their defaults: the area a swab covers (25 sqcm, a 5 × 5 cm template, is usual), the rinse volume, the volume a swab is extracted into (needed to judge a swab result against a method LOQ given as a concentration), and the recovery of the sampling step. Every facility starts with a "Swab" (25 sqcm) and a "Rinse" (1 L) type.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    {
      name: 'sampleType',
      label: 'Sample type',
      kind: 'enum',
      options: ['swab', 'rinse'],
      optionLabels: SAMPLE_TYPE_LABELS,
      required: true,
    },
    {
      name: 'swabArea',
      label: 'Default swab area',
      kind: 'quantity',
      measure: 'surfaceArea',
      positive: true,
    },
    {
      name: 'rinseVolume',
      label: 'Default rinse volume',
      kind: 'quantity',
      measure: 'volume',
      positive: true,
    },
    {
      // What a swab is extracted into: turns a method's LOQ given as a concentration in the
      // extract into an amount per swab, and a swab sample limit into a limit per swab.
      name: 'extractionVolume',
      label: 'Extraction volume',
      kind: 'quantity',
      measure: 'volume',
      positive: true,
    },
    {
      name: 'recoveryPercentage',
      label: 'Default recovery (%)',
      kind: 'number',
      positive: true,
      max: 100,
    },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['name'],
  search: ['name'],
  listColumns: ['name', 'sampleType', 'swabArea', 'rinseVolume', 'recoveryPercentage'],
} as const satisfies EntityDef<string>;

/** A microbiological test of cleaned surfaces or rinse water (bioburden, endotoxin). */
export const microbialMethodsDef = {
  key: 'microbialMethods',
  label: 'Microbial analytical method',
  pluralLabel: 'Microbial analytical methods',
  path: 'microbial-analytical-method',
  table: 'microbial_methods',
  resource: 'AnalyticalMethod',
  domain: 'MicrobialMethod',
  description:
    'Microbial analytical methods: the test (total aerobic microbial count TAMC, total yeast and mould count TYMC, bacterial endotoxin, specified organisms), how the sample is taken (contact plate, swab, rinse), the unit results are reported in, the limit of detection, the recovery and the incubation conditions.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'methodNumber', label: 'Method number', kind: 'text', max: 100 },
    {
      name: 'testType',
      label: 'Test',
      kind: 'enum',
      required: true,
      options: ['TAMC', 'TYMC', 'Endotoxin', 'Specified organisms'],
    },
    {
      name: 'samplingMethod',
      label: 'Sampling',
      kind: 'enum',
      options: ['Contact plate', 'Swab', 'Rinse'],
    },
    {
      name: 'resultUnit',
      label: 'Result unit',
      kind: 'enum',
      required: true,
      options: ['CFU/plate', 'CFU/swab', 'CFU/ml', 'CFU/100 ml', 'EU/ml'],
    },
    { name: 'lod', label: 'Limit of detection', kind: 'number', min: 0 },
    {
      name: 'recoveryPercentage',
      label: 'Recovery (%)',
      kind: 'number',
      positive: true,
      max: 100,
    },
    {
      name: 'incubation',
      label: 'Incubation',
      kind: 'longText',
      max: 1000,
      description: 'Media, temperature and time, e.g. "TSA, 30–35 °C, 3–5 days".',
    },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['name'],
  search: ['name', 'methodNumber'],
  listColumns: ['name', 'methodNumber', 'testType', 'samplingMethod', 'resultUnit'],
} as const satisfies EntityDef<string>;
