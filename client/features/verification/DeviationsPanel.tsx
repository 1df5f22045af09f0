import { Button, Card, Checkbox, Form, Input, Radio, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TSignAction } from '#core/schemas/signatures.schemas.ts';
import { SignDialog } from '#client/shared/records/SignDialog.tsx';
import { SubmitRefusal } from './SubmitRefusal.tsx';
import { usePermissions } from '#client/shared/permissions.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { verificationKeys } from '#client/shared/query-keys.ts';
import {
  DEVIATION_KIND_LABELS,
  type TDeviation,
  type TRun,
} from '#core/schemas/verification.schemas.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { useEditBase } from '#client/shared/use-edit-base.ts';
import {
  invalidateRun,
  runCalls,
  useRunWrite,
  type DeviationCreateBody,
  type DeviationEditBody,
} from './verification-api.ts';

/**
 * The run's deviations: raise one (process or laboratory), propose its closure with its root
 * cause and conclusion, and, for QA, approve (or reject) the closure with an e-signature; a
 * deviation is Open until QA signs.
 */
export function DeviationsPanel({
  run,
  canEdit,
  refusal = null,
}: {
  run: TRun;
  canEdit: boolean;
  /** The server's refusal of the run's Submit that a deviation resolves. */
  refusal?: string | null;
}) {
  const scope = useFacilityScope();
  const client = useQueryClient();
  const permissions = usePermissions();
  // QA may hold only Sign (and read): signing a closure needs no right to edit the run, only
  // that the run still takes changes (not submitted, its study not closed).
  const runOpen = (run.status === 'NotStarted' || run.status === 'InProgress') && !run.studyClosed;
  const canSign = permissions.can('ApprovalPolicy', 'Sign') && runOpen;
  const [adding, setAdding] = useState(false);
  // The deviation whose closure is being proposed, by id: it is read from the run as the run
  // refetches, so a conflict's reload reaches the open dialog.
  const [proposingId, setProposingId] = useState<number | null>(null);
  const proposing = run.deviations.find((d) => d.id === proposingId) ?? null;
  const [signing, setSigning] = useState<{ deviation: TDeviation; action: TSignAction } | null>(
    null,
  );
  const reload = () => {
    void client.invalidateQueries({ queryKey: verificationKeys.run(scope.facilityId, run.id) });
    void invalidateRun(client, scope.facilityId);
  };
  return (
    <Card
      title="Deviations"
      extra={canEdit ? <Button onClick={() => setAdding(true)}>Add deviation</Button> : null}
    >
      <SubmitRefusal message={refusal} />
      <Table<TDeviation>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={run.deviations}
        locale={{ emptyText: 'No deviations' }}
        columns={[
          { title: 'Number', dataIndex: 'number' },
          {
            title: 'Kind',
            dataIndex: 'kind',
            render: (kind: TDeviation['kind']) => DEVIATION_KIND_LABELS[kind],
          },
          { title: 'Title', dataIndex: 'title' },
          { title: 'Root cause', dataIndex: 'rootCause', render: (v: string | null) => v ?? '—' },
          { title: 'Conclusion', dataIndex: 'conclusion', render: (v: string | null) => v ?? '—' },
          { title: 'CAPA', dataIndex: 'capaReference', render: (v: string | null) => v ?? '—' },
          {
            title: 'Invalidates run',
            dataIndex: 'invalidatesRun',
            render: (v: boolean) => (v ? 'Yes' : 'No'),
          },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (_status: TDeviation['status'], deviation) => (
              <DeviationStatus
                deviation={deviation}
                canEdit={canEdit}
                canSign={canSign}
                onPropose={() => setProposingId(deviation.id)}
                onSign={(action) => setSigning({ deviation, action })}
              />
            ),
          },
        ]}
      />
      {adding ? <AddDeviation run={run} onClose={() => setAdding(false)} /> : null}
      {proposing ? (
        <ProposeClosure
          deviation={proposing}
          onConflict={reload}
          onSaved={(saved) => {
            setProposingId(null);
            setSigning({ deviation: saved, action: 'Submit' });
          }}
          onClose={() => setProposingId(null)}
        />
      ) : null}
      {signing ? (
        <SignDialog
          target={{
            documentType: 'Deviation',
            documentId: signing.deviation.id,
            title: `${signing.deviation.number} ${signing.deviation.title}`,
            action: signing.action,
          }}
          onSigned={reload}
          onClose={() => setSigning(null)}
        />
      ) : null}
    </Card>
  );
}

function DeviationStatus(props: {
  deviation: TDeviation;
  canEdit: boolean;
  canSign: boolean;
  onPropose: () => void;
  onSign: (action: TSignAction) => void;
}) {
  const { deviation, canEdit, canSign } = props;
  const awaiting =
    deviation.status === 'Open' &&
    (deviation.controlled.status === 'BeingApproved' ||
      deviation.controlled.status === 'BeingReviewed');
  if (deviation.status === 'Closed')
    return (
      <Tag
        data-testid="deviation-status"
        title={
          deviation.closedByName
            ? `Closure approved by ${deviation.closedByName}`
            : 'Closed before QA approval was required'
        }
      >
        Closed
      </Tag>
    );
  if (awaiting)
    return (
      <Space wrap size={4}>
        <Tag color="orange" data-testid="deviation-status">
          Awaiting QA approval
        </Tag>
        {canSign ? (
          <>
            <Button size="small" type="primary" onClick={() => props.onSign('Approve')}>
              Approve closure
            </Button>
            <Button size="small" danger onClick={() => props.onSign('Reject')}>
              Reject
            </Button>
          </>
        ) : null}
      </Space>
    );
  return (
    <Space wrap size={4}>
      <Tag color="red" data-testid="deviation-status">
        {deviation.controlled.signatureState === 'ChangesRequested'
          ? 'Open (closure rejected)'
          : 'Open'}
      </Tag>
      {canEdit ? (
        <Button size="small" onClick={props.onPropose}>
          Propose closure
        </Button>
      ) : null}
    </Space>
  );
}

function AddDeviation({ run, onClose }: { run: TRun; onClose: () => void }) {
  const [form] = Form.useForm<DeviationCreateBody>();
  const kind = Form.useWatch('kind', form);
  const add = useRunWrite((scope, body: DeviationCreateBody) =>
    runCalls.addDeviation(scope, run.id, body),
  );
  return (
    <ReasonDialog<DeviationCreateBody>
      form={form}
      name="deviation"
      title={`Add a deviation to run ${run.sequence}`}
      okText="Add deviation"
      initialValues={{ kind: 'process', invalidatesRun: false }}
      askReason={false}
      onClose={onClose}
      onSubmit={(values) =>
        add.mutateAsync({
          ...values,
          rootCause: values.rootCause?.trim() ? values.rootCause.trim() : null,
          conclusion: values.conclusion?.trim() ? values.conclusion.trim() : null,
          capaReference: values.capaReference?.trim() ? values.capaReference.trim() : null,
          samplingLocationId: values.samplingLocationId ?? null,
          invalidatesRun: values.kind === 'nonProcess' && values.invalidatesRun === true,
        })
      }
    >
      <Form.Item
        name="kind"
        label="Kind"
        extra="Process: a process failure confirmed, the equipment is cleaned again and the run repeated. Non-process (laboratory): a laboratory error, investigated."
      >
        <Radio.Group
          optionType="button"
          options={Object.entries(DEVIATION_KIND_LABELS).map(([value, label]) => ({
            value,
            label,
          }))}
        />
      </Form.Item>
      <Form.Item
        name="samplingLocationId"
        label="Sampling location"
        extra="A deviation about a planned location explains a result missing there, or records the decision on a result that failed there, at submission."
      >
        <Select
          allowClear
          placeholder="The run as a whole"
          options={[...new Map(run.plan.map((row) => [row.samplingLocationId, row])).values()].map(
            (row) => ({
              value: row.samplingLocationId,
              label: `${row.samplingLocationName} (${row.equipmentName})`,
            }),
          )}
        />
      </Form.Item>
      <Form.Item
        name="title"
        label="Title"
        rules={[{ required: true, whitespace: true, message: 'A title is required' }]}
      >
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="description" label="Description">
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={5000} />
      </Form.Item>
      <Form.Item name="rootCause" label="Root cause">
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={5000} />
      </Form.Item>
      <Form.Item name="conclusion" label="Conclusion">
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={5000} />
      </Form.Item>
      <Form.Item name="capaReference" label="CAPA reference">
        <Input maxLength={100} />
      </Form.Item>
      {kind === 'nonProcess' ? (
        <Form.Item name="invalidatesRun" valuePropName="checked">
          <Checkbox>Invalidates the run (it needs a repeat)</Checkbox>
        </Form.Item>
      ) : null}
    </ReasonDialog>
  );
}

type ClosureValues = Pick<DeviationEditBody, 'rootCause' | 'conclusion' | 'reason'>;

/**
 * The root cause and conclusion the closure proposes, saved (with a reason when they change);
 * the proposer then signs the proposal and QA approves it.
 */
function ProposeClosure(props: {
  deviation: TDeviation;
  onSaved: (deviation: TDeviation) => void;
  onConflict: () => void;
  onClose: () => void;
}) {
  const { deviation } = props;
  const [form] = Form.useForm<ClosureValues>();
  // The deviation's version the typed entries start from: a live update does not move it.
  const base = useEditBase(deviation.version);
  const save = useRunWrite((scope, body: DeviationEditBody) =>
    runCalls.editDeviation(scope, deviation.id, body),
  );
  const required = (message: string) => [{ required: true, whitespace: true, message }];
  return (
    <ReasonDialog<ClosureValues>
      canSubmit={!base.settling}
      form={form}
      name="propose-closure"
      title={`Propose the closure of ${deviation.number}`}
      okText="Save and sign the proposal"
      initialValues={{ rootCause: deviation.rootCause, conclusion: deviation.conclusion }}
      askReason
      onClose={props.onClose}
      onConflict={() => {
        base.follow();
        props.onConflict();
      }}
      onSubmit={async (values) => {
        const rootCause = values.rootCause?.trim() ?? null;
        const conclusion = values.conclusion?.trim() ?? null;
        if (rootCause === deviation.rootCause && conclusion === deviation.conclusion) {
          props.onSaved(deviation);
          return;
        }
        const run = await save.mutateAsync({
          rootCause,
          conclusion,
          reason: values.reason,
          version: base.version,
        });
        props.onSaved(run.deviations.find((d) => d.id === deviation.id) ?? deviation);
      }}
    >
      <Form.Item
        name="rootCause"
        label="Root cause"
        rules={required('A deviation is closed with its root cause')}
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={5000} />
      </Form.Item>
      <Form.Item
        name="conclusion"
        label="Conclusion"
        extra="What the investigation concluded, for QA to approve."
        rules={required('A deviation is closed with its conclusion')}
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={5000} />
      </Form.Item>
    </ReasonDialog>
  );
}
