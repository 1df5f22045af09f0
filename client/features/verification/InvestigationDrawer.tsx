import { Button, Descriptions, Drawer, Flex, Form, Input, Radio, Select, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  INVESTIGATION_OUTCOME_LABELS,
  LABORATORY_CAUSE_LABELS,
  type TInvestigation,
} from '#core/schemas/investigation.schemas.ts';
import type { TRun } from '#core/schemas/verification.schemas.ts';
import { ControlledRecordPanel } from '#client/shared/records/ControlledRecordPanel.tsx';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { verificationKeys } from '#client/shared/query-keys.ts';
import { useEditBase } from '#client/shared/use-edit-base.ts';
import {
  investigationCalls,
  useInvestigationWrite,
  type InvestigationEditBody,
} from './investigation-api.ts';

/**
 * A laboratory investigation (phase I) of an out-of-specification result: what was found, the
 * outcome (an assignable laboratory cause invalidates the result; otherwise the OOS is confirmed)
 * and the conclusion, submitted and approved by QA through the signature dialog (FDA OOS
 * guidance 2006/2022).
 */
export function InvestigationDrawer(props: {
  run: TRun;
  investigation: TInvestigation;
  canEdit: boolean;
  onClose: () => void;
}) {
  const { run, investigation } = props;
  const [writing, setWriting] = useState(false);
  const scope = useFacilityScope();
  const client = useQueryClient();
  const isBeingBuilt = investigation.controlled.status === 'BeingBuilt';
  const title = `Investigation ${investigation.number}: ${investigation.samplingLocationName}, ${investigation.reported}`;
  return (
    <Drawer open size="large" title={title} onClose={props.onClose}>
      <Flex vertical gap="middle">
        <Descriptions
          size="small"
          column={1}
          bordered
          items={[
            { key: 'phase', label: 'Phase', children: 'I (laboratory)' },
            {
              key: 'percent',
              label: '% of limit',
              children:
                investigation.percentOfLimit === null
                  ? '—'
                  : `${investigation.percentOfLimit.toFixed(1)} %`,
            },
            { key: 'findings', label: 'Findings', children: investigation.findings || '—' },
            {
              key: 'outcome',
              label: 'Outcome',
              children: investigation.outcome
                ? INVESTIGATION_OUTCOME_LABELS[investigation.outcome]
                : 'Not decided',
            },
            {
              key: 'cause',
              label: 'Assignable cause',
              children: investigation.causeCategory
                ? `${LABORATORY_CAUSE_LABELS[investigation.causeCategory]}: ${investigation.causeDescription ?? ''}`
                : '—',
            },
            { key: 'conclusion', label: 'Conclusion', children: investigation.conclusion ?? '—' },
          ]}
        />
        {investigation.concluded ? (
          <Typography.Text type="secondary">Concluded: approved by QA.</Typography.Text>
        ) : null}
        {props.canEdit && isBeingBuilt ? (
          <Button onClick={() => setWriting(true)}>Write investigation</Button>
        ) : null}
        <ControlledRecordPanel
          documentType="Investigation"
          documentId={investigation.id}
          title={`Investigation ${investigation.number}`}
          state={investigation.controlled}
          canModify={props.canEdit}
          onSigned={() =>
            void client.invalidateQueries({
              queryKey: verificationKeys.run(scope.facilityId, run.id),
            })
          }
        />
      </Flex>
      {writing ? (
        <WriteInvestigation
          run={run}
          investigation={investigation}
          onClose={() => setWriting(false)}
        />
      ) : null}
    </Drawer>
  );
}

type WriteValues = Omit<InvestigationEditBody, 'version'>;

function WriteInvestigation(props: {
  run: TRun;
  investigation: TInvestigation;
  onClose: () => void;
}) {
  const { investigation } = props;
  const [form] = Form.useForm<WriteValues>();
  // The investigation's version the typed entries start from: a live update does not move it.
  // The dialog is mounted only while open, so each opening starts from the version then shown.
  const base = useEditBase(investigation.version);
  const scope = useFacilityScope();
  const client = useQueryClient();
  const outcome = Form.useWatch('outcome', form);
  const save = useInvestigationWrite(props.run.id, (scope, body: InvestigationEditBody) =>
    investigationCalls.edit(scope, investigation.id, body),
  );
  const trimmed = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);
  return (
    <ReasonDialog<WriteValues>
      canSubmit={!base.settling}
      form={form}
      name="investigation"
      title={`Investigation ${investigation.number}`}
      okText="Save investigation"
      width={640}
      initialValues={{
        findings: investigation.findings,
        outcome: investigation.outcome,
        causeCategory: investigation.causeCategory,
        causeDescription: investigation.causeDescription,
        conclusion: investigation.conclusion,
      }}
      onClose={props.onClose}
      onConflict={() => {
        base.follow();
        void client.invalidateQueries({
          queryKey: verificationKeys.run(scope.facilityId, props.run.id),
        });
      }}
      onSubmit={(values) =>
        save.mutateAsync({
          findings: values.findings?.trim() ?? '',
          outcome: values.outcome ?? null,
          causeCategory:
            values.outcome === 'assignableCause' ? (values.causeCategory ?? null) : null,
          causeDescription:
            values.outcome === 'assignableCause' ? trimmed(values.causeDescription) : null,
          conclusion: trimmed(values.conclusion),
          reason: values.reason,
          version: base.version,
        })
      }
    >
      <Form.Item name="findings" label="Findings">
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} maxLength={5000} />
      </Form.Item>
      <Form.Item name="outcome" label="Outcome">
        <Radio.Group
          options={Object.entries(INVESTIGATION_OUTCOME_LABELS).map(([value, label]) => ({
            value,
            label,
          }))}
        />
      </Form.Item>
      {outcome === 'assignableCause' ? (
        <>
          <Form.Item name="causeCategory" label="Laboratory cause">
            <Select
              options={Object.entries(LABORATORY_CAUSE_LABELS).map(([value, label]) => ({
                value,
                label,
              }))}
            />
          </Form.Item>
          <Form.Item name="causeDescription" label="Cause and evidence">
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={5000} />
          </Form.Item>
        </>
      ) : null}
      <Form.Item name="conclusion" label="Conclusion">
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={5000} />
      </Form.Item>
    </ReasonDialog>
  );
}
