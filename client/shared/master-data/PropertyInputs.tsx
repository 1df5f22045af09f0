import { Divider, Form, Input } from 'antd';
import type { TPropertyDefinition } from '#core/schemas/additional-properties.schemas.ts';
import type { EntityRecord } from './entity-api.ts';
import { FieldInput } from './FieldInput.tsx';
import { formatQuantity, isQuantity } from './format-value.ts';
import { archivedValues, propertyField, PROPERTIES } from './property-form.ts';

interface PropertyInputsProps {
  definitions: readonly TPropertyDefinition[];
  record: EntityRecord | null;
}

/**
 * The facility's additional properties of the entity: an input per active definition, and the
 * values of archived definitions shown read-only (they are kept, never edited).
 */
export function PropertyInputs({ definitions, record }: PropertyInputsProps) {
  const active = definitions.filter((d) => !d.archived);
  const archived = archivedValues(definitions, record);
  if (active.length === 0 && archived.length === 0) return null;
  return (
    <>
      <Divider titlePlacement="start">Additional properties</Divider>
      {active.map((definition) => (
        <FieldInput
          key={definition.key}
          field={propertyField(definition)}
          name={[PROPERTIES, definition.key]}
        />
      ))}
      {archived.map(({ definition, value }) => (
        <Form.Item
          key={definition.key}
          label={`${definition.label} (archived)`}
          tooltip="The property is archived: its value is kept and can no longer be changed."
        >
          <Input disabled value={isQuantity(value) ? formatQuantity(value) : String(value)} />
        </Form.Item>
      ))}
    </>
  );
}
