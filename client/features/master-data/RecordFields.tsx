import { Descriptions, Space, Typography } from 'antd';
import { Fragment, useMemo } from 'react';
import { Link } from 'react-router';
import type { EntityDef } from '#core/entities/entity.ts';
import type { FieldDef } from '#core/entities/field.ts';
import type { EntityRecord } from '#client/shared/master-data/entity-api.ts';
import { referencedDef } from '#client/shared/master-data/entity-registry.ts';
import { formatFieldValue, type NameLookup } from '#client/shared/master-data/format-value.ts';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { hasRecordPage, recordPagePath } from '#client/shared/master-data/record-pages.ts';
import { useReferenceNames } from '#client/shared/master-data/use-reference-names.ts';
import { usePropertyDefinitions } from '#client/shared/settings/property-definitions-api.ts';
import { documentColumn } from './document-column.tsx';
import { propertyField, PROPERTIES } from '#client/shared/master-data/property-form.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';

const NONE = <Typography.Text type="secondary">—</Typography.Text>;

function isEmpty(value: unknown): boolean {
  return (
    value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length)
  );
}

/** A referenced record by name, linked to its page where it has one. */
function ReferenceLink({ entity, id, nameOf }: { entity: string; id: number; nameOf: NameLookup }) {
  const def = referencedDef(entity);
  const name = nameOf(entity, id);
  return def && hasRecordPage(def) ? <Link to={recordPagePath(def, id)}>{name}</Link> : <>{name}</>;
}

function FieldValue({
  field,
  value,
  nameOf,
}: {
  field: FieldDef;
  value: unknown;
  nameOf: NameLookup;
}) {
  const numbers = useNumberFormat();
  if (isEmpty(value)) return NONE;
  if (field.kind === 'reference') {
    const ids = (Array.isArray(value) ? value : [value]).filter((id) => typeof id === 'number');
    return (
      <Space wrap separator=",">
        {ids.map((id) => (
          <ReferenceLink key={id} entity={field.entity} id={id} nameOf={nameOf} />
        ))}
      </Space>
    );
  }
  if (field.kind === 'list' && Array.isArray(value)) {
    // One line per item: a product's actives as "Alpha 10 mg", each active linked.
    return (
      <ul style={{ margin: 0, paddingLeft: 20 }}>
        {value.map((item: unknown, index) => (
          <li key={index}>
            <Space wrap>
              {field.of.map((sub) => {
                const inner = (item as Record<string, unknown> | null)?.[sub.name];
                return isEmpty(inner) ? null : (
                  <Fragment key={sub.name}>
                    <FieldValue field={sub} value={inner} nameOf={nameOf} />
                  </Fragment>
                );
              })}
            </Space>
          </li>
        ))}
      </ul>
    );
  }
  return <>{formatFieldValue(field, value, nameOf, numbers.digits)}</>;
}

/**
 * A record's declared fields, each with its label, values with their units; then the facility's
 * additional properties of its kind (those no longer in use only where they hold a value), and
 * its reference document.
 */
export function RecordFields({ def, record }: { def: EntityDef; record: EntityRecord }) {
  const scope = useFacilityScope();
  const fields = useMemo(() => [...def.fields], [def]);
  const nameOf = useReferenceNames(fields);
  const definitions = usePropertyDefinitions(def.propertyTarget).data ?? [];
  const values = (record[PROPERTIES] as Record<string, unknown> | undefined) ?? {};
  const properties = definitions
    .filter((definition) => !definition.archived || !isEmpty(values[definition.key]))
    .map((definition) => ({
      key: `${PROPERTIES}.${definition.key}`,
      label: definition.label,
      children: (
        <FieldValue
          field={propertyField(definition)}
          value={values[definition.key]}
          nameOf={nameOf}
        />
      ),
    }));
  const document = def.document ? documentColumn(def, scope) : null;
  return (
    <Descriptions
      bordered
      size="small"
      column={1}
      items={[
        ...fields.map((field) => ({
          key: field.name,
          label: field.label,
          children: <FieldValue field={field} value={record[field.name]} nameOf={nameOf} />,
        })),
        ...properties,
        ...(document
          ? [{ key: document.key, label: document.title, children: document.render(null, record) }]
          : []),
      ]}
    />
  );
}
