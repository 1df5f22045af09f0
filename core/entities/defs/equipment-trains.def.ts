import { ZTrainSharedArea } from '../../schemas/productions.schemas.ts';
import type { EntityDef } from '../entity.ts';

/**
 * An equipment train (spec §6 EquipmentTrain, issue 32): the equipment a product passes through,
 * in that order, kept as a record of its own so that productions and protocols can name it. Its
 * shared product-contact area is the sum of its items' areas (read with every record), the area
 * the MACO of a production on it is spread over (EMA/PIC/S PI 006: shared equipment surface).
 * A controlled record: an edit is a new version that moves nothing until it is approved with
 * signatures (21 CFR 11.50/11.70, 211.100(a)); the version in force is what productions,
 * protocols, coverage and the worst-case products read.
 */
export const equipmentTrainsDef = {
  key: 'equipmentTrains',
  label: 'Equipment train',
  pluralLabel: 'Equipment trains',
  path: 'equipment-trains',
  table: 'equipment_trains',
  resource: 'EquipmentTrain',
  domain: 'EquipmentTrain',
  description:
    'Equipment trains: the equipment a product passes through, in order, with the shared product-contact area computed from the items. A controlled record: an edit is a new version, and only the approved version is in force. A production that names a train uses the equipment of its approved version; the approval of a new version carries its equipment to those productions, each with its own audit row.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    {
      name: 'equipmentIds',
      label: 'Equipment',
      kind: 'reference',
      entity: 'equipment',
      multiple: true,
      ordered: true,
      required: true,
      description: 'The equipment in the order the product passes through it',
    },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['name'],
  search: ['name'],
  listColumns: ['name', 'equipmentIds'],
  controlled: { documentType: 'EquipmentTrain' },
  check: (record) =>
    Array.isArray(record.equipmentIds) && record.equipmentIds.length > 0
      ? []
      : [
          {
            property: 'equipmentIds',
            constraints: { required: 'A train needs at least one item of equipment' },
          },
        ],
  readExtras: {
    sharedArea: ZTrainSharedArea.describe(
      'The shared product-contact area: the sum of the items’ areas in the facility’s default unit, with its derivation',
    ),
  },
} as const satisfies EntityDef<string>;
