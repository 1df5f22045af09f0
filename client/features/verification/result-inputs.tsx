import { unitLabel } from '#core/units/format-number.ts';
import { Form, Input, InputNumber, Radio, Select } from 'antd';
import {
  CENSORING,
  RINSE_RESULT_UNITS,
  SWAB_RESULT_UNITS,
  type TSampleType,
} from '#core/schemas/verification.schemas.ts';
import { FacilityDateTimeInput } from '#client/shared/facility-date-inputs.tsx';

/** Units a row may be entered in: an amount per swab, or a rinse concentration. */
export function unitsOf(sampleType: TSampleType): readonly string[] {
  return sampleType === 'swab' ? SWAB_RESULT_UNITS : RINSE_RESULT_UNITS;
}

/**
 * Censoring, value, unit and sample number of one result (stored as `batchNumber`, the
 * spec's name, whose duplicate message keeps its words), sized for a tablet at the line.
 * `prefix` is the name path the fields sit under (['rows', key] in the results form).
 */
export function ResultInputs({
  prefix,
  sampleType,
  label,
  required = false,
}: {
  prefix: string[];
  sampleType: TSampleType;
  label: string;
  required?: boolean;
}) {
  return (
    <>
      <Form.Item name={[...prefix, 'censoring']} label="Reported as">
        <Radio.Group
          size="large"
          optionType="button"
          buttonStyle="solid"
          aria-label={`Censoring of ${label}`}
          options={CENSORING.map((value) => ({ value, label: value }))}
        />
      </Form.Item>
      <Form.Item
        name={[...prefix, 'rawValue']}
        label="Value"
        rules={required ? [{ required: true, message: 'A value is required' }] : []}
      >
        <InputNumber size="large" min={0} style={{ width: 180 }} aria-label={`Value of ${label}`} />
      </Form.Item>
      <Form.Item name={[...prefix, 'unit']} label="Unit">
        <Select
          size="large"
          style={{ width: 140 }}
          aria-label={`Unit of ${label}`}
          options={unitsOf(sampleType).map((value) => ({ value, label: unitLabel(value) }))}
        />
      </Form.Item>
      <Form.Item name={[...prefix, 'batchNumber']} label="Sample number">
        <Input size="large" style={{ width: 200 }} aria-label={`Sample number of ${label}`} />
      </Form.Item>
    </>
  );
}

/**
 * When the sample was taken, on the facility's clock (the statistics order results by it);
 * the form fills it with the time the entry opened (an ISO instant).
 */
export function TakenAtInput({ prefix, label }: { prefix: string[]; label: string }) {
  return (
    <Form.Item name={[...prefix, 'takenAt']} label="Sampled at">
      <FacilityDateTimeInput aria-label={`Sampling time of ${label}`} />
    </Form.Item>
  );
}
