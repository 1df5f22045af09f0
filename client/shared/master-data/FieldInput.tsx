import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, InputNumber, Select, Switch, Typography } from 'antd';
import type { FieldDef } from '#core/entities/field.ts';
import { referencedDef } from './entity-registry.ts';
import { newListRow } from './form-values.ts';
import { QuantityInput } from './QuantityInput.tsx';
import { OrderedReferenceList } from './OrderedReferenceList.tsx';
import { ReferenceSelect } from './ReferenceSelect.tsx';
import { SamplingLocationSelect } from './SamplingLocationSelect.tsx';
import type { PropertyPath } from '#core/errors/property-path.ts';
import { lowerLabel } from '#core/entities/labels.ts';

interface FieldInputProps {
  field: FieldDef;
  /** The form item's name: the field name, or [row, sub-field] inside a list. */
  name: PropertyPath;
  /** Distinguishes the rows of a list for assistive technology: "Active 2". */
  labelSuffix?: string;
  /** Inside a list: the row's whole path in the form, for inputs that fill in their neighbours. */
  rowPath?: PropertyPath;
}

function requiredRule(field: FieldDef) {
  return field.required ? [{ required: true, message: `${field.label} is required` }] : [];
}

/** One form item per field, by kind. */
export function FieldInput({ field, name, labelSuffix = '', rowPath }: FieldInputProps) {
  const label = `${field.label}${labelSuffix}`;
  const common = { name, label, tooltip: field.description, rules: requiredRule(field) };
  switch (field.kind) {
    case 'text':
      return (
        <Form.Item {...common}>
          <Input maxLength={field.max ?? 200} />
        </Form.Item>
      );
    case 'longText':
      return (
        <Form.Item {...common}>
          <Input.TextArea rows={3} maxLength={field.max ?? 5000} />
        </Form.Item>
      );
    case 'number':
    case 'integer':
      return (
        <Form.Item {...common}>
          <InputNumber
            style={{ width: '100%' }}
            precision={field.kind === 'integer' ? 0 : undefined}
            min={field.min}
            max={field.max}
          />
        </Form.Item>
      );
    case 'boolean':
      return (
        <Form.Item {...common} valuePropName="checked">
          <Switch />
        </Form.Item>
      );
    case 'enum':
      return (
        <Form.Item {...common}>
          <Select
            allowClear
            options={field.options.map((o) => ({ label: field.optionLabels?.[o] ?? o, value: o }))}
          />
        </Form.Item>
      );
    case 'quantity':
      return (
        <Form.Item label={label} tooltip={field.description} required={field.required ?? false}>
          <QuantityInput
            name={name}
            measure={field.measure}
            label={label}
            required={field.required ?? false}
            positive={field.positive ?? false}
          />
        </Form.Item>
      );
    case 'reference':
      // Sampling locations are children of their equipment: picked among the chosen equipment's.
      if (field.entity === 'samplingLocations' && !field.multiple)
        return (
          <Form.Item {...common}>
            <SamplingLocationSelect rowPath={rowPath} />
          </Form.Item>
        );
      if (field.multiple && field.ordered) {
        const target = referencedDef(field.entity);
        if (target)
          return (
            <Form.Item {...common}>
              <OrderedReferenceList def={target} />
            </Form.Item>
          );
      }
      return (
        <Form.Item {...common}>
          <ReferenceSelect def={referencedDef(field.entity)} multiple={field.multiple} />
        </Form.Item>
      );
    case 'list':
      return <ListFieldInput field={field} name={name} />;
  }
}

function ListFieldInput({
  field,
  name,
}: {
  field: Extract<FieldDef, { kind: 'list' }>;
  name: PropertyPath;
}) {
  return (
    <Form.Item label={field.label} tooltip={field.description}>
      <Form.List name={name}>
        {(rows, { add, remove }) => (
          <>
            {rows.length === 0 ? (
              <Typography.Paragraph type="secondary">
                No {lowerLabel(field.label)} yet.
              </Typography.Paragraph>
            ) : null}
            {rows.map((row, index) => (
              <Card
                key={row.key}
                size="small"
                style={{ marginBottom: 8 }}
                title={`${field.label} ${index + 1}`}
                extra={
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`Remove ${lowerLabel(field.label)} ${index + 1}`}
                    onClick={() => remove(row.name)}
                  />
                }
              >
                {field.of.map((sub) => (
                  <FieldInput
                    key={sub.name}
                    field={sub}
                    name={[row.name, sub.name]}
                    labelSuffix={` ${index + 1}`}
                    rowPath={[...name, row.name]}
                  />
                ))}
              </Card>
            ))}
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add(newListRow(field))}>
              Add {lowerLabel(field.label)}
            </Button>
          </>
        )}
      </Form.List>
    </Form.Item>
  );
}
