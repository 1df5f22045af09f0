import { unitLabel } from '#core/units/format-number.ts';
import { Button, Card, Col, Form, Input, InputNumber, Row, Select, Space, Switch } from 'antd';
import { ROOM_GRADES } from './room-grade-letters.ts';

const L3_UNITS = ['mg/sqcm', 'ug/sqcm', 'mg/sqin', 'ug/sqin', 'mg/sqm', 'ug/sqm'];

function Toggle({ name, label }: { name: string; label: string }) {
  return (
    <Form.Item name={name} label={label} valuePropName="checked">
      <Switch />
    </Form.Item>
  );
}

function NumberField({
  name,
  label,
  suffix,
}: {
  name: string | (string | number)[];
  label: string;
  suffix?: string;
}) {
  return (
    <Form.Item name={name} label={label}>
      <InputNumber style={{ width: '100%' }} suffix={suffix} />
    </Form.Item>
  );
}

/** The microbial cleaning limit policy: surface limits per room grade, rinse and endotoxin. */
export function MicrobialFields() {
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small" title="Limits">
        <Toggle name="useMicrobialLimits" label="Use microbial limits" />
        <NumberField name="rinseLimit" label="Rinse limit" suffix="CFU/ml" />
        <Toggle name="useEndotoxinLimit" label="Use endotoxin limit" />
        <NumberField name="endotoxinLimit" label="Endotoxin limit" suffix="EU/ml" />
        <NumberField name="alertLevelPercentage" label="Alert level" suffix="% of the limit" />
      </Card>
      <Card size="small" title="Surface limits per room grade (EU GMP Annex 1)">
        <Row gutter={16}>
          {ROOM_GRADES.map((grade) => (
            <Col key={grade} xs={24} sm={12} lg={6}>
              <NumberField
                name={['gradeLimits', grade, 'contactPlate']}
                label={`Grade ${grade} contact plate`}
                suffix="CFU"
              />
              <NumberField
                name={['gradeLimits', grade, 'swab']}
                label={`Grade ${grade} swab`}
                suffix="CFU"
              />
            </Col>
          ))}
          <Col xs={24} sm={12} lg={6}>
            <NumberField
              name={['ungradedLimit', 'contactPlate']}
              label="Ungraded contact plate"
              suffix="CFU"
            />
            <NumberField name={['ungradedLimit', 'swab']} label="Ungraded swab" suffix="CFU" />
          </Col>
        </Row>
      </Card>
    </Space>
  );
}

/** How cleaned equipment is inspected before release, with the inspector's checklist. */
export function InspectionFields() {
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small" title="Inspection">
        <Toggle name="visualInspectionRequired" label="Visual inspection required" />
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <NumberField name={['visibleResidueLimit', 'value']} label="Visible residue limit" />
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name={['visibleResidueLimit', 'unit']} label="Visible residue limit unit">
              <Select options={L3_UNITS.map((value) => ({ value, label: unitLabel(value) }))} />
            </Form.Item>
          </Col>
        </Row>
        <NumberField name="minimumLightLux" label="Minimum light" suffix="lux" />
        <Toggle name="requireSecondPersonVerification" label="Second person verifies" />
        <Toggle name="requirePhotoEvidence" label="Photo evidence required" />
        <NumberField name="dirtyHoldTimeHours" label="Dirty hold time" suffix="h" />
        <NumberField name="cleanHoldTimeHours" label="Clean hold time" suffix="h" />
      </Card>
      <Card size="small" title="Checklist">
        <Form.List name="checklist">
          {(fields, { add, remove }) => (
            <Space orientation="vertical" style={{ width: '100%' }}>
              {fields.map((field, index) => (
                <Space key={field.key} align="baseline" wrap>
                  <Form.Item name={[field.name, 'item']} label={`Item ${index + 1}`}>
                    <Input style={{ minWidth: 360 }} />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'isMandatory']}
                    label="Mandatory"
                    valuePropName="checked"
                  >
                    <Switch />
                  </Form.Item>
                  <Button onClick={() => remove(field.name)}>Remove</Button>
                </Space>
              ))}
              <Button onClick={() => add({ item: '', isMandatory: true })}>Add item</Button>
            </Space>
          )}
        </Form.List>
      </Card>
    </Space>
  );
}
