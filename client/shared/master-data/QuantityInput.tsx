import { unitLabel } from '#core/units/format-number.ts';
import { Form, InputNumber, Select, Space } from 'antd';
import type { MeasureName } from '#core/units/measures.ts';
import { MEASURES } from '#core/units/measures.ts';
import type { PropertyPath } from '#core/errors/property-path.ts';

interface QuantityInputProps {
  name: PropertyPath;
  measure: MeasureName;
  label: string;
  required: boolean;
  positive: boolean;
}

/**
 * A value and its unit, the unit limited to the measure's allowed units (spec §3). Both are
 * form items of their own, so a server error on `surfaceArea.unit` lands on the unit.
 */
export function QuantityInput({ name, measure, label, required, positive }: QuantityInputProps) {
  const allowed = MEASURES[measure].allowed as readonly string[];
  return (
    <Space.Compact block>
      <Form.Item
        name={[...name, 'value']}
        noStyle
        rules={[
          ...(required ? [{ required: true, message: `${label} is required` }] : []),
          ...(positive
            ? [
                {
                  validator: (_rule: unknown, value: unknown) =>
                    typeof value === 'number' && value <= 0
                      ? Promise.reject(new Error('must be greater than 0'))
                      : Promise.resolve(),
                },
              ]
            : []),
        ]}
      >
        <InputNumber aria-label={label} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name={[...name, 'unit']} noStyle>
        <Select
          aria-label={`${label} unit`}
          style={{ width: 120 }}
          options={allowed.map((unit) => ({ label: unitLabel(unit), value: unit }))}
          disabled={allowed.length === 1}
        />
      </Form.Item>
    </Space.Compact>
  );
}
