import { Button, Descriptions, Drawer, Space, Spin, Alert, Tabs, Tag } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { EntityDef } from '#core/entities/entity.ts';
import type { FieldDef } from '#core/entities/field.ts';
import { actionOf } from '#core/entities/entity.ts';
import type { TControlledDocumentType } from '#core/schemas/signatures.schemas.ts';
import { facilityPath } from '../master-data/entity-api.ts';
import { useEditedVersion } from '../master-data/entity-queries.ts';
import { VersionTag } from '../policies/VersionTag.tsx';
import { versionNumbersOf } from '../policies/rules-api.ts';
import type { EntityRecord } from '../master-data/entity-api.ts';
import { invalidateMasterData } from '../query-keys.ts';
import { usePermissions } from '../permissions.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { ControlledRecordPanel } from './ControlledRecordPanel.tsx';
import { controlledStateOf } from './record-actions.ts';
import { StatusTag } from './StatusTag.tsx';
import { formatFieldValue, type NameLookup } from '../master-data/format-value.ts';
import { useNumberFormat } from '../use-number-format.ts';
import { useReferenceNames } from '../master-data/use-reference-names.ts';
import { useEquipmentLocations } from '../master-data/SamplingLocationSelect.tsx';
import { showValue } from './version-diff.ts';
import { RecordHistory } from '../audit-log/RecordHistory.tsx';
import { lowerLabel } from '#core/entities/labels.ts';
import { NAME_PENDING } from '../display-labels.ts';

/** The document type of a declared entity that is a controlled record, or null. */
export function controlledTypeOf(def: EntityDef): TControlledDocumentType | null {
  return def.controlled?.documentType ?? null;
}

function recordTitle(def: EntityDef, record: EntityRecord): string {
  const number = def.unique[0] ? record[def.unique[0]] : undefined;
  const name = record.name;
  // A record whose unique field is its name (a train, a MAC formula) is named once, as the
  // server titles its versions (controlled-entities.ts titleOf).
  const parts = [number, name].filter((part) => part !== undefined && part !== null);
  return [...new Set(parts)].join(' ') || def.label;
}

/** A field of the record as the drawer shows it: references by name, '—' when empty. */
export function fieldText(
  field: FieldDef,
  value: unknown,
  nameOf: NameLookup,
  digits?: number,
): string {
  const text = formatFieldValue(field, value, nameOf, digits);
  return text === '' ? showValue(null) : text;
}

/** The list column of a controlled entity: its status, version, and a way into the record. */
export function controlledColumn(def: EntityDef, open: (record: EntityRecord) => void) {
  return {
    key: 'controlledStatus',
    title: 'Status',
    render: (_: unknown, record: EntityRecord) => {
      const state = controlledStateOf(record);
      return (
        <Space size={4}>
          {state ? <StatusTag state={state} /> : null}
          {state ? <Tag>v{state.versionNumber}</Tag> : null}
          <Button
            size="small"
            type="link"
            aria-label={`Open ${lowerLabel(def.label)} ${recordTitle(def, record)}`}
            onClick={() => open(record)}
          >
            Signatures
          </Button>
        </Space>
      );
    },
  };
}

/** A controlled entity record: its fields, status, signatures, actions and version history. */
export function ControlledRecordDrawer(props: { def: EntityDef; id: number; onClose: () => void }) {
  const numbers = useNumberFormat();
  const { def, id } = props;
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const permissions = usePermissions();
  const documentType = controlledTypeOf(def);
  // Signatures act on the latest version: the drawer shows the draft, labelled against the
  // version in force (the list shows the latter).
  const record = useEditedVersion(def, id);
  const state = record.data ? controlledStateOf(record.data) : null;
  const labels = Object.fromEntries(def.fields.map((field) => [field.name, field.label]));
  // References show the names the master-data lists show (an SOP's cleaning procedures).
  const referenceNames = useReferenceNames(def.fields);
  // Sampling locations are named among the record's equipment's (a protocol's plan).
  const equipmentIds = record.data?.equipmentIds;
  const locations = useEquipmentLocations(Array.isArray(equipmentIds) ? equipmentIds : []);
  const nameOf: NameLookup = (key, id) =>
    key === 'samplingLocations'
      ? (locations.options.find((option) => option.value === id)?.label ?? NAME_PENDING)
      : referenceNames(key, id);
  return (
    <Drawer
      open
      size={760}
      title={record.data ? recordTitle(def, record.data) : def.label}
      onClose={props.onClose}
    >
      {record.isError ? <Alert type="error" showIcon title={record.error.message} /> : null}
      {record.isPending ? <Spin /> : null}
      {record.data && documentType && state ? (
        <Tabs
          items={[
            {
              key: 'record',
              label: 'Record',
              children: (
                <Space orientation="vertical" size="large" style={{ width: '100%' }}>
                  <VersionTag controlled={{ state, ...versionNumbersOf(record.data) }} />
                  <ControlledRecordPanel
                    documentType={documentType}
                    documentId={id}
                    title={recordTitle(def, record.data)}
                    state={state}
                    canModify={permissions.can(def.resource, actionOf(def, 'modify'))}
                    changeControlled={
                      def.controlled?.changeControlled
                        ? { pluralLabel: def.pluralLabel }
                        : undefined
                    }
                    path={`${facilityPath(scope)}/${def.path}/${id}`}
                    labels={labels}
                    formatValue={(name, value) => {
                      const field = def.fields.find((f) => f.name === name);
                      return field
                        ? fieldText(field, value, nameOf, numbers.digits)
                        : showValue(value);
                    }}
                    // An approval makes the version effective: the limits follow it.
                    onSigned={() => void invalidateMasterData(queryClient, scope.facilityId)}
                  />
                  <Descriptions
                    size="small"
                    column={1}
                    bordered
                    items={def.fields.map((field) => ({
                      key: field.name,
                      label: field.label,
                      children: fieldText(field, record.data[field.name], nameOf, numbers.digits),
                    }))}
                  />
                </Space>
              ),
            },
            { key: 'history', label: 'History', children: <RecordHistory def={def} id={id} /> },
          ]}
        />
      ) : null}
    </Drawer>
  );
}
