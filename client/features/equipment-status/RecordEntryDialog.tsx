import { Form, Input, Select } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LOGBOOK_EVENTS, nextEvents } from '#core/equipment-status/equipment-status.ts';
import { LOGBOOK_EVENT_LABELS } from '#core/equipment-status/equipment-status-labels.ts';
import { RELEASE_MEANING, type TLogbookRequest } from '#core/schemas/equipment-status.schemas.ts';
import { productsDef } from '#core/entities/defs/index.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { useEntityOptions } from '#client/shared/master-data/entity-queries.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import {
  SignedActFields,
  signerProofOf,
  type SignerProofValues,
} from '#client/shared/records/SignerProofField.tsx';
import { listStudies, listStudyRuns } from '#client/shared/studies/studies-api.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { studyKeys } from '#client/shared/query-keys.ts';
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
  /** Only to pick the run by: the request names the run. */
  studyId?: number;
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
      {event === 'CleaningEnded' || event === 'Released' ? <RunPicker /> : null}
      <Form.Item
        label="Reason"
        name="reason"
        rules={[{ required: NEEDS_REASON.includes(event), whitespace: true }]}
      >
        <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={1000} />
      </Form.Item>
      {event === 'Released' ? <SignedActFields meaning={RELEASE_MEANING} /> : null}
    </ReasonDialog>
  );
}

/**
 * The cleaning's verification run, picked as people name it: its study (ST-0001 and title),
 * then its run number; never typed as a database id.
 */
function RunPicker() {
  const scope = useFacilityScope();
  const form = Form.useFormInstance<EntryValues>();
  const studyId = Form.useWatch('studyId', form);
  // Runs are read with the studies' permission; without it the release takes the cleaning's run.
  const canRead = usePermissions().can('QualificationTask', 'Get');
  const query = { pageNumber: 1, pageLimit: 100 };
  const studies = useQuery({
    queryKey: studyKeys.list(scope.facilityId, query),
    queryFn: ({ signal }) => listStudies(scope, query, signal),
    enabled: canRead,
  });
  const runs = useQuery({
    queryKey: studyKeys.runs(scope.facilityId, studyId ?? 0),
    queryFn: ({ signal }) => listStudyRuns(scope, studyId!, signal),
    enabled: canRead && studyId !== undefined && studyId !== null,
  });
  if (!canRead) return null;
  return (
    <>
      <Form.Item label="Study of the verification run" name="studyId">
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          loading={studies.isPending}
          onChange={() => form.setFieldValue('runId', undefined)}
          options={(studies.data?.data ?? []).map((study) => ({
            value: study.id,
            label: `${study.number} · ${study.title}`,
          }))}
        />
      </Form.Item>
      <Form.Item label="Verification run" name="runId">
        <Select
          allowClear
          disabled={!studyId}
          loading={runs.isFetching}
          options={(runs.data ?? []).map((run) => ({
            value: run.id,
            label: `Run ${run.sequence}`,
          }))}
        />
      </Form.Item>
    </>
  );
}
