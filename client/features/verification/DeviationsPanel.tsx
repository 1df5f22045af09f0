import { Button, Card, Checkbox, Form, Input, Radio, Select, Table, Tag } from 'antd';
import { useState } from 'react';
import {
  DEVIATION_KIND_LABELS,
  type TDeviation,
  type TRun,
} from '#core/schemas/verification.schemas.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import {
  runCalls,
  useRunWrite,
  type DeviationCreateBody,
  type DeviationEditBody,
} from './verification-api.ts';

/** The run's deviations: raise one (process or laboratory), close one with its root cause. */
export function DeviationsPanel({ run, canEdit }: { run: TRun; canEdit: boolean }) {
  const [adding, setAdding] = useState(false);
  const [closing, setClosing] = useState<TDeviation | null>(null);
  return (
    <Card
      title="Deviations"
      extra={canEdit ? <Button onClick={() => setAdding(true)}>Add deviation</Button> : null}
    >
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
          { title: 'CAPA', dataIndex: 'capaReference', render: (v: string | null) => v ?? '—' },
          {
            title: 'Invalidates run',
            dataIndex: 'invalidatesRun',
            render: (v: boolean) => (v ? 'Yes' : 'No'),
          },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (status: TDeviation['status'], deviation) =>
              status === 'Open' && canEdit ? (
                <>
                  <Tag color="red">Open</Tag>
                  <Button size="small" onClick={() => setClosing(deviation)}>
                    Close
                  </Button>
                </>
              ) : (
                <Tag color={status === 'Open' ? 'red' : 'default'}>{status}</Tag>
              ),
          },
        ]}
      />
      {adding ? <AddDeviation run={run} onClose={() => setAdding(false)} /> : null}
      {closing ? <CloseDeviation deviation={closing} onClose={() => setClosing(null)} /> : null}
    </Card>
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
          capaReference: values.capaReference?.trim() ? values.capaReference.trim() : null,
          samplingLocationId: values.samplingLocationId ?? null,
          invalidatesRun: values.kind === 'nonProcess' && values.invalidatesRun === true,
        })
      }
    >
      <Form.Item name="kind" label="Kind">
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
        extra="A deviation about a planned location explains a result missing there at submission."
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

type CloseValues = Pick<DeviationEditBody, 'rootCause' | 'reason'>;

function CloseDeviation({ deviation, onClose }: { deviation: TDeviation; onClose: () => void }) {
  const [form] = Form.useForm<CloseValues>();
  const close = useRunWrite((scope, body: DeviationEditBody) =>
    runCalls.editDeviation(scope, deviation.id, body),
  );
  return (
    <ReasonDialog<CloseValues>
      form={form}
      name="close-deviation"
      title={`Close ${deviation.number}`}
      okText="Close deviation"
      initialValues={{ rootCause: deviation.rootCause }}
      askReason
      onClose={onClose}
      onSubmit={(values) =>
        close.mutateAsync({
          status: 'Closed',
          rootCause: values.rootCause?.trim() ?? null,
          reason: values.reason,
          version: deviation.version,
        })
      }
    >
      <Form.Item
        name="rootCause"
        label="Root cause"
        rules={[
          { required: true, whitespace: true, message: 'Closing a deviation needs a root cause' },
        ]}
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={5000} />
      </Form.Item>
    </ReasonDialog>
  );
}
