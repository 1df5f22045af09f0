import { SAMPLE_TYPE_LABELS } from '#core/labels/enum-labels.ts';
import type { EntityDef } from '../entity.ts';
import { attributeProblems, policyProblems } from './sampling-policy.checks.ts';

/*
 * The sampling policy and the sampling-assessment attributes (spec §3). Their calls differ from
 * the other master data (spec §7: edit is PUT {id}, archive is DELETE {id} with a reason: their
 * `verbs`), and they are not in ENTITY_DEFS, which lists the master data the export and the
 * client's master-data screens cover; the server registers the same routes for both lists.
 */

/** How a facility samples its equipment after cleaning. */
export const samplingPolicyDef = {
  key: 'samplingPolicy',
  label: 'Sampling policy',
  pluralLabel: 'Sampling policies',
  path: 'sampling-policy',
  table: 'sampling_policies',
  resource: 'SamplingMethod',
  domain: 'SamplingPolicy',
  verbs: 'put-delete',
  description:
    'Sampling policies: the sample type (swab or rinse), the default swab area (surface area) or rinse volume, and which sampling locations of an item of equipment must be sampled: a number of locations per item, or every location whose risk score is at least a minimum risk score. Exactly one of the two is given. A swab policy needs a swab area, a rinse policy a rinse volume.',
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
      description: 'The area one swab covers; 25 sqcm (a 5 × 5 cm template) is usual.',
    },
    {
      name: 'rinseVolume',
      label: 'Default rinse volume',
      kind: 'quantity',
      measure: 'volume',
      positive: true,
    },
    {
      name: 'locationsPerEquipment',
      label: 'Locations per equipment',
      kind: 'integer',
      min: 1,
      max: 1000,
      description: 'How many sampling locations of each item are sampled (the riskiest first).',
    },
    {
      name: 'minimumRiskScore',
      label: 'Minimum risk score',
      kind: 'number',
      min: 0,
      description: 'Every location whose risk score is at least this is sampled.',
    },
    { name: 'notes', label: 'Notes', kind: 'longText' },
  ],
  unique: ['name'],
  search: ['name', 'notes'],
  listColumns: [
    'name',
    'sampleType',
    'swabArea',
    'rinseVolume',
    'locationsPerEquipment',
    'minimumRiskScore',
  ],
  check: policyProblems,
} as const satisfies EntityDef<string>;

/** A criterion a sampling location is risk-assessed on, with its scored options and weight. */
export const samplingAttributesDef = {
  key: 'samplingAttributes',
  label: 'Sampling assessment attribute',
  pluralLabel: 'Sampling assessment attributes',
  path: 'sampling-policy/attributes',
  table: 'sampling_attributes',
  resource: 'SamplingMethod',
  domain: 'SamplingAttribute',
  verbs: 'put-delete',
  description:
    'Sampling-assessment attributes: the criteria a sampling location is risk-assessed on (for example Accessibility, Geometry, Material), each with a weight (1–100) and its options, each a label with a score (0–100). When a facility has active attributes, a location’s risk score is the sum over the attributes of weight × the chosen option’s score.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'weight', label: 'Weight', kind: 'integer', min: 1, max: 100, required: true },
    {
      name: 'options',
      label: 'Options',
      kind: 'list',
      required: true,
      of: [
        { name: 'label', label: 'Option', kind: 'text', required: true, max: 200 },
        { name: 'score', label: 'Score', kind: 'integer', min: 0, max: 100, required: true },
      ],
      description: 'At least two options, each with its own label.',
    },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['name'],
  search: ['name'],
  listColumns: ['name', 'weight', 'options'],
  check: attributeProblems,
} as const satisfies EntityDef<string>;

export const SAMPLING_POLICY_DEFS = [samplingPolicyDef, samplingAttributesDef] as const;
