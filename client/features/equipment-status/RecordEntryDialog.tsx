import { Form, Input, InputNumber, Select, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { LOGBOOK_EVENTS, nextEvents } from '#core/equipment-status/equipment-status.ts';
import { LOGBOOK_EVENT_LABELS } from '#core/equipment-status/equipment-status-labels.ts';
import { RELEASE_MEANING, type TLogbookRequest } from '#core/schemas/equipment-status.schemas.ts';
import { productsDef } from '#core/entities/defs/index.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { useEntityOptions } from '#client/shared/master-data/entity-queries.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import {
  SignerProofField,
  signerProofOf,
  type SignerProofValues,
} from '#client/shared/records/SignerProofField.tsx';
import {
  equipmentStatusKeys,
  recordEntry,
  type EquipmentStatusItem,
} from './equipment-status-api.ts';

type Event = TLogbookRequest['event'];

interface EntryValues extends SignerProofValues {
  event: Event;
  productId?: number;
  batch?: string;
  runId?: number;
  reason?: string;
}

/** The events a person records from the board; a correction is made from the log. */
const EVENTS = LOGBOOK_EVENTS.filter((e) => e !== 'Correction');
const NEEDS_REASON: readonly Event[] = ['Blocked', 'Unblocked'];

/**
 * Records a use, cleaning, release or block of an item. Every event may be tried: the server
 * keeps the production hold and says why it refuses (409 EquipmentNotReleased with its reasons).
 * A release is an electronic signature with the signer's password (21 CFR Part 11 §11.200).
 */
export function RecordEntryDialog({
  item,
  onClose,
}: {
  item: EquipmentStatusItem;
  onClose: () => void;
}) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const products = useEntityOptions(productsDef);
  const [form] = Form.useForm<EntryValues>();
  const event = Form.useWatch('event', form) ?? nextEvents(item.state)[0] ?? 'CleaningStarted';

  async function record(values: EntryValues): Promise<void> {
    const reason = values.reason?.trim();
    await recordEntry(scope, item.equipmentId, {
      event: values.event,
      ...(values.event === 'UseStarted'
        ? { productId: values.productId, batch: values.batch }
        : {}),
      ...(values.runId ? { runId: values.runId } : {}),
      ...(reason ? { reason } : {}),
      ...(values.event === 'Released' ? signerProofOf(values) : {}),
    } as TLogbookRequest);
    await queryClient.invalidateQueries({ queryKey: equipmentStatusKeys.all(scope.facilityId) });
  }

  return (
    <ReasonDialog<EntryValues>
      form={form}
      name="logbook-entry"
      title={`Record for ${item.name}`}
      okText={event === 'Released' ? 'Sign and release' : 'Record'}
      initialValues={{ event }}
      askReason={false}
      onSubmit={record}
      onClose={onClose}
    >
      <Form.Item label="Event" name="event" rules={[{ required: true }]}>
        <Select options={EVENTS.map((e) => ({ value: e, label: LOGBOOK_EVENT_LABELS[e] }))} />
      </Form.Item>
      {event === 'UseStarted' ? (
        <>
          <Form.Item label="Product" name="productId" rules={[{ required: true }]}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={(products.data?.data ?? []).map((p) => ({
                value: p.id,
                label: String(p.name),
              }))}
            />
          </Form.Item>
          <Form.Item label="Batch" name="batch" rules={[{ required: true, whitespace: true }]}>
            <Input maxLength={100} />
          </Form.Item>
        </>
      ) : null}
      {event === 'CleaningEnded' || event === 'Released' ? (
        <Form.Item label="Verification run" name="runId">
          <InputNumber min={1} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      ) : null}
      <Form.Item
        label="Reason"
        name="reason"
        rules={[{ required: NEEDS_REASON.includes(event), whitespace: true }]}
      >
        <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={1000} />
      </Form.Item>
      {event === 'Released' ? (
        <>
          <Typography.Paragraph type="secondary">
            Meaning: {RELEASE_MEANING}. Your electronic signature is the legally binding equivalent
            of your handwritten signature.
          </Typography.Paragraph>
          <SignerProofField />
        </>
      ) : null}
    </ReasonDialog>
  );
}
