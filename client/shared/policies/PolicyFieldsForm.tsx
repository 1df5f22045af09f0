import { unitLabel } from '#core/units/format-number.ts';
import { Card, Col, Form, InputNumber, Row, Select, Space, Switch } from 'antd';
import type { ReactNode } from 'react';
import { fieldMeaning } from '#core/limits/policy-fields.ts';

const L3_UNITS = ['mg/sqcm', 'ug/sqcm', 'mg/sqin', 'ug/sqin', 'mg/sqm', 'ug/sqm'];
const SAMPLE_UNITS = ['ppm', 'mg/ml', 'ug/ml'];
const MASS_UNITS = ['mg', 'ug'];

/** Units as people write them ('ug' → 'µg'); the value sent is the unit's key. */
const options = (values: readonly string[]) =>
  values.map((value) => ({ value, label: unitLabel(value) }));

/**
 * What the field does to the numbers (a tooltip) and, where it changes nothing in this facility,
 * why (shown under it): no policy field is silently ignored.
 */
function help(name: (string | number)[] | string): { tooltip?: string; extra?: string } {
  const f = fieldMeaning(Array.isArray(name) ? name.map(String) : [name]);
  return f ? { tooltip: f.meaning, ...(f.noEffect ? { extra: f.noEffect } : {}) } : {};
}

/** `explained`: the field's meaning is shown under it as well, not only in its tooltip. */
function Toggle({
  name,
  label,
  explained,
}: {
  name: (string | number)[] | string;
  label: string;
  explained?: boolean;
}) {
  const h = help(name);
  const shown = explained ? { extra: [h.tooltip, h.extra].filter(Boolean).join(' ') } : {};
  return (
    <Form.Item name={name} label={label} valuePropName="checked" {...h} {...shown}>
      <Switch />
    </Form.Item>
  );
}

function NumberField({
  name,
  label,
  suffix,
  disabled,
}: {
  name: (string | number)[] | string;
  label: string;
  suffix?: string;
  disabled?: boolean;
}) {
  return (
    <Form.Item
      name={name}
      label={label}
      rules={[{ required: true, message: `${label} is required` }]}
      {...help(name)}
    >
      <InputNumber style={{ width: '100%' }} suffix={suffix} disabled={disabled ?? false} />
    </Form.Item>
  );
}

function UnitField({ name, label, units }: { name: string[]; label: string; units: string[] }) {
  return (
    <Form.Item name={name} label={label} {...help(name)}>
      <Select options={options(units)} />
    </Form.Item>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card size="small" title={title}>
      <Row gutter={16}>{children}</Row>
    </Card>
  );
}

const Cell = ({ children }: { children: ReactNode }) => (
  <Col xs={24} sm={12} lg={8}>
    {children}
  </Col>
);

function SampleRepresentation({ group, title }: { group: string; title: string }) {
  return (['swab', 'rinse'] as const).map((sample) => (
    <Cell key={`${group}-${sample}`}>
      <Toggle
        name={['limitRepresentation', group, sample, 'usePerSampleLimit']}
        label={`${title}: ${sample} per sample`}
      />
      <UnitField
        name={['limitRepresentation', group, sample, 'unit']}
        label={`${title}: ${sample} unit`}
        units={SAMPLE_UNITS}
      />
    </Cell>
  ));
}

/**
 * Every field of a cleaning limit policy (spec §3, core/schemas/policy.schemas.ts), grouped as
 * a validation engineer reads them: which criteria apply, the general limit, the caps, recovery,
 * sample limits, factors, and how limits are shown.
 */
export function PolicyFieldsForm({ isIntermediate }: { isIntermediate: boolean }) {
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Section title="Criteria">
        <Cell>
          <Toggle name="useToxicity" label="Use toxicity (PDE/ADE)" />
          <Toggle name="useDosage" label="Use dosage (1/1000 of the dose)" />
          <Toggle name="useLd50" label="Use LD50" />
        </Cell>
        <Cell>
          <Toggle name="useARL" label="Use general limit (ARL)" />
          <Toggle name="useProductLimit" label="Use product limit" />
          <Toggle name="useFirstAvailableCriteria" label="Use first available criterion" />
        </Cell>
        <Cell>
          <Toggle name="ignoreCombo" label="Ignore combination (each active on its own)" />
          <Toggle name="useSAR" label="Sample limits from the surface limit (SAR)" />
        </Cell>
      </Section>
      <Section title="General limit">
        <Cell>
          <NumberField name={['arl', 'value']} label="General limit (ARL)" suffix="ppm" />
        </Cell>
        {isIntermediate ? (
          <>
            <Cell>
              <NumberField
                name={['intermediateArl', 'value']}
                label="Intermediate general limit"
                suffix="ppm"
              />
            </Cell>
            <Cell>
              <NumberField
                name={['activesArl', 'value']}
                label="Actives general limit"
                suffix="ppm"
              />
            </Cell>
          </>
        ) : null}
      </Section>
      <Section title="Residue limit cap (L3)">
        <Cell>
          <Toggle name="useResidueLimit" label="Cap the surface limit" />
        </Cell>
        <Cell>
          <NumberField name={['residueLimit', 'value']} label="Residue limit" />
        </Cell>
        <Cell>
          <UnitField name={['residueLimit', 'unit']} label="Residue limit unit" units={L3_UNITS} />
        </Cell>
      </Section>
      <Section title="Recovery">
        <Cell>
          <Toggle name="useGlobalRecoveryPercentage" label="Use a global recovery" />
        </Cell>
        <Cell>
          <NumberField name="globalRecoveryPercentage" label="Global recovery" suffix="%" />
        </Cell>
      </Section>
      <Section title="Sample limits">
        <Cell>
          <Toggle name="useSampleLimit" label="Cap the sample limits" />
          <NumberField name="swabSampleLimit" label="Swab sample limit" />
          <NumberField name="rinseSampleLimit" label="Rinse sample limit" />
        </Cell>
        <Cell>
          <Toggle name="useFixedSampleLimits" label="Use fixed sample limits" explained />
          <NumberField name="fixedSwabLimit" label="Fixed swab limit" />
          <NumberField name="fixedRinseLimit" label="Fixed rinse limit" />
        </Cell>
      </Section>
      <Section title="Factors">
        <Cell>
          <NumberField name="safetyFactor" label="Safety factor" disabled={isIntermediate} />
          <NumberField name="modificationFactor" label="Modification factor" />
        </Cell>
        <Cell>
          <NumberField name={['bodyWeight', 'value']} label="Body weight" />
          <UnitField name={['bodyWeight', 'unit']} label="Body weight unit" units={['kg', 'g']} />
        </Cell>
        <Cell>
          <NumberField name="ld50EmpiricalFactor" label="LD50 empirical factor" />
          <Form.Item name="areaBasis" label="Area basis" {...help('areaBasis')}>
            <Select
              options={[
                { value: 'shared', label: 'Shared equipment surface' },
                { value: 'previousTrain', label: "The previous product's train" },
              ]}
            />
          </Form.Item>
        </Cell>
      </Section>
      <Section title="Limit representation">
        <Cell>
          <UnitField
            name={['limitRepresentation', 'productAndEquipmentLimits', 'salMassUnit']}
            label="Surface limit mass unit"
            units={MASS_UNITS}
          />
        </Cell>
        <SampleRepresentation group="sampleLimits" title="Sample limits" />
        <SampleRepresentation group="sampleRecordingLimits" title="Recording limits" />
        {(['swab', 'rinse'] as const).map((sample) => (
          <Cell key={`reporting-${sample}`}>
            <Toggle
              name={['limitRepresentation', 'reporting', sample, 'showSar']}
              label={`Report ${sample}: surface limit`}
            />
            <Toggle
              name={['limitRepresentation', 'reporting', sample, 'showPerSampleResidue']}
              label={`Report ${sample}: residue per sample`}
            />
            <Toggle
              name={['limitRepresentation', 'reporting', sample, 'showConcentration']}
              label={`Report ${sample}: concentration`}
            />
            <UnitField
              name={['limitRepresentation', 'reporting', sample, 'perSampleLimitUnit']}
              label={`Report ${sample}: per sample unit`}
              units={MASS_UNITS}
            />
            <UnitField
              name={['limitRepresentation', 'reporting', sample, 'concentrationLimitUnit']}
              label={`Report ${sample}: concentration unit`}
              units={SAMPLE_UNITS}
            />
          </Cell>
        ))}
      </Section>
    </Space>
  );
}
