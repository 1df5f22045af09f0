import { Alert, Button, Card, Flex, Form, Input, InputNumber } from 'antd';
import { useState } from 'react';
import type { TRun } from '#core/schemas/verification.schemas.ts';
import { showSaveError } from '#client/api/form-errors.ts';
import { ReasonField } from '#client/shared/reason/ReasonDialog.tsx';
import { ReferenceSelect } from '#client/shared/master-data/ReferenceSelect.tsx';
import { referencedDef } from '#client/shared/master-data/entity-registry.ts';
import { holdBreach, type EventFormValues } from './event-values.ts';
import { FacilityDateTimeInput } from '#client/shared/facility-date-inputs.tsx';
import { runCalls, useRunWrite, type RunEditBody } from './verification-api.ts';
import { validatedValues } from '#client/shared/validated-values.ts';
import { useEditBase } from '#client/shared/use-edit-base.ts';

type Values = EventFormValues & { reason: string };

/** The visual inspection is its own card (InspectionCard); the event form leaves it out. */
function eventFields({ visualResult: _r, visualNotes: _n, ...event }: TRun['event']) {
  return event;
}

/** The cleaning event of a run: times, product batch, people, procedure and hold times. */
export function CleaningEventForm(props: { run: TRun; canEdit: boolean; onConflict: () => void }) {
  const { run } = props;
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  // The run's version the typed entries start from: a live update does not move it.
  const base = useEditBase(run.version);
  const save = useRunWrite((scope, body: RunEditBody) => runCalls.editEvent(scope, run.id, body));
  const dirty = Form.useWatch('dirtyHoldHours', form);
  const clean = Form.useWatch('cleanHoldHours', form);
  const dirtyBreach = holdBreach(dirty, run.dirtyHoldMaxHours, run.dirtyHoldMaxSource);
  const cleanBreach = holdBreach(clean, run.cleanHoldMaxHours, run.cleanHoldMaxSource);
  const event = run.event;

  async function submit(): Promise<void> {
    const values = await validatedValues(form);
    if (!values) return;
    setSaving(true);
    try {
      await save.mutateAsync({
        ...values,
        startedAt: values.startedAt ?? null,
        endedAt: values.endedAt ?? null,
        agentLot: values.agentLot?.trim() ? values.agentLot.trim() : null,
        productBatch: values.productBatch?.trim() ? values.productBatch.trim() : null,
        reason: values.reason.trim(),
        version: base.version,
      });
      base.follow();
      form.setFieldValue('reason', '');
    } catch (error) {
      showSaveError(error, form, () => {
        base.follow();
        props.onConflict();
      });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card title="Cleaning event">
      <Form
        form={form}
        name="cleaning-event"
        layout="vertical"
        disabled={!props.canEdit}
        initialValues={{
          ...eventFields(event),
          startedAt: event.startedAt ?? null,
          endedAt: event.endedAt ?? null,
          operatorIds: event.operatorIds ?? [],
        }}
      >
        <Flex wrap gap="middle">
          <Form.Item name="startedAt" label="Cleaning started">
            <FacilityDateTimeInput />
          </Form.Item>
          <Form.Item name="endedAt" label="Cleaning ended">
            <FacilityDateTimeInput />
          </Form.Item>
          <Form.Item
            name="productBatch"
            label="Product batch"
            tooltip="The batch of the product made on the equipment before this cleaning"
          >
            <Input size="large" style={{ width: 200 }} maxLength={100} />
          </Form.Item>
          <Form.Item name="agentLot" label="Cleaning agent lot">
            <Input size="large" style={{ width: 200 }} />
          </Form.Item>
        </Flex>
        <Flex wrap gap="middle">
          <Form.Item name="operatorIds" label="Operators" style={{ minWidth: 300 }}>
            <ReferenceSelect def={referencedDef('operators')} multiple aria-label="Operators" />
          </Form.Item>
          <Form.Item
            name="cleaningProcedureId"
            label="Cleaning procedure"
            style={{ minWidth: 300 }}
          >
            <ReferenceSelect
              def={referencedDef('cleaningProcedures')}
              aria-label="Cleaning procedure"
            />
          </Form.Item>
        </Flex>
        <Flex wrap gap="middle">
          <HoldField
            name="dirtyHoldHours"
            label="Dirty hold"
            max={run.dirtyHoldMaxHours}
            source={run.dirtyHoldMaxSource}
            breach={dirtyBreach}
          />
          <HoldField
            name="cleanHoldHours"
            label="Clean hold"
            max={run.cleanHoldMaxHours}
            source={run.cleanHoldMaxSource}
            breach={cleanBreach}
          />
        </Flex>
        {dirtyBreach || cleanBreach ? (
          <Alert
            type="warning"
            showIcon
            title="Hold time breach: the run cannot be released"
            style={{ marginBottom: 16 }}
          />
        ) : null}
        {props.canEdit ? (
          <>
            <ReasonField />
            <Button type="primary" size="large" loading={saving} onClick={() => void submit()}>
              Save cleaning event
            </Button>
          </>
        ) : null}
      </Form>
    </Card>
  );
}

/**
 * A hold time reached, against the protocol's maximum (else the cleaning inspection settings');
 * a breach is a warning under the field.
 */
function HoldField(props: {
  name: 'dirtyHoldHours' | 'cleanHoldHours';
  label: string;
  max: number | null;
  source: TRun['dirtyHoldMaxSource'];
  breach: string | null;
}) {
  const from = props.source === 'inspection settings' ? ' from the inspection settings' : '';
  const max = props.max === null ? 'no maximum' : `maximum ${props.max} h${from}`;
  return (
    <Form.Item
      name={props.name}
      label={`${props.label} reached (h, ${max})`}
      validateStatus={props.breach ? 'warning' : undefined}
      help={props.breach ? `${props.label} breach: ${props.breach}` : undefined}
    >
      <InputNumber size="large" min={0} style={{ width: 160 }} />
    </Form.Item>
  );
}
