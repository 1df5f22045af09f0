import { Alert, Drawer, Form, Modal, Select, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { EntityDef } from '#core/entities/entity.ts';
import {
  POLICY_TARGET,
  type TChangeAssessment,
  type TStagedChange,
} from '#core/schemas/change-assessments.schemas.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { getEntity } from '#client/shared/master-data/entity-api.ts';
import type { EntityRecord } from '#client/shared/master-data/entity-api.ts';
import { entityKeys } from '#client/shared/query-keys.ts';
import { EntityFormDrawer } from '#client/shared/master-data/EntityFormDrawer.tsx';
import type { EntityFormSave } from '#client/shared/master-data/EntityFormDrawer.tsx';
import { lowerLabel } from '#client/shared/master-data/entity-registry.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { PolicyTab } from '#client/shared/policies/PolicyTab.tsx';
import {
  loadPolicy,
  RESIDUE_TYPES,
  rulesKeys,
  usePolicyTab,
} from '#client/shared/policies/rules-api.ts';
import type { PolicyFields, ResidueType } from '#client/shared/policies/rules-api.ts';
import {
  changeCalls,
  useChangeWrite,
} from '#client/shared/change-assessments/change-assessments-api.ts';
import type { StagedChangeBody } from '#client/shared/change-assessments/change-assessments-api.ts';
import { RecordPicker } from './RecordPicker.tsx';
import { defOfChange, OP_LABELS, STAGEABLE_DEFS, stageAction } from './stage-target.ts';
import type { StageOp } from './stage-target.ts';
import { validatedValues } from '#client/shared/validated-values.ts';
import { useEditBase } from '#client/shared/use-edit-base.ts';
import { isApiError } from '#client/api/api-error.ts';

/** What the picker chose: a record type, what to do and to which record (or a policy). */
type Choice =
  | { kind: 'entity'; def: EntityDef; op: StageOp; recordId: number | null }
  | { kind: 'policy'; residueType: ResidueType };

interface PickerValues {
  target?: string;
  op?: StageOp;
  recordId?: number | null;
  residueType?: ResidueType;
}

/** Stages a new change: pick the record type and record, then the same form a direct edit uses. */
export function StageChange(props: { assessment: TChangeAssessment; onClose: () => void }) {
  const [choice, setChoice] = useState<Choice | null>(null);
  if (!choice) return <StagePicker onChosen={setChoice} onClose={props.onClose} />;
  if (choice.kind === 'policy')
    return (
      <PolicyStage
        assessment={props.assessment}
        residueType={choice.residueType}
        onClose={props.onClose}
      />
    );
  return <EntityStage assessment={props.assessment} choice={choice} onClose={props.onClose} />;
}

/** Opens a staged create or edit again in its form; the values staged are on top. */
export function EditStagedChange(props: {
  assessment: TChangeAssessment;
  change: TStagedChange;
  onClose: () => void;
}) {
  const { change } = props;
  const def = defOfChange(change);
  if (change.entity === POLICY_TARGET) return <StagedPolicyEdit {...props} />;
  if (!def) return null;
  return (
    <EntityStage
      assessment={props.assessment}
      choice={{ kind: 'entity', def, op: change.op, recordId: change.recordId }}
      change={{ id: change.id, values: change.values }}
      onClose={props.onClose}
    />
  );
}

/** A staged policy edit names the policy by its record id: its residue type is the policy's. */
function StagedPolicyEdit(props: {
  assessment: TChangeAssessment;
  change: TStagedChange;
  onClose: () => void;
}) {
  const { change } = props;
  const tab = usePolicyTab(change.recordId ?? 0);
  const residueType = RESIDUE_TYPES.find((type) => type === tab.data);
  if (!residueType) return tab.isPending ? <Spin /> : null;
  return (
    <PolicyStage
      assessment={props.assessment}
      residueType={residueType}
      change={{ id: change.id, values: change.values as Partial<PolicyFields> }}
      onClose={props.onClose}
    />
  );
}

function StagePicker(props: { onChosen: (choice: Choice) => void; onClose: () => void }) {
  const [form] = Form.useForm<PickerValues>();
  const permissions = usePermissions();
  const target = Form.useWatch('target', form);
  const op = Form.useWatch('op', form);
  const def = STAGEABLE_DEFS.find((candidate) => candidate.key === target);
  const isPolicy = target === POLICY_TARGET;
  const ops = def
    ? (Object.keys(OP_LABELS) as StageOp[]).filter(
        (name) =>
          permissions.can(def.resource, stageAction(def, name)) &&
          (def.archivable !== false || (name !== 'archive' && name !== 'restore')),
      )
    : [];

  async function next(): Promise<void> {
    const values = await validatedValues(form);
    if (!values) return;
    if (isPolicy && values.residueType) {
      props.onChosen({ kind: 'policy', residueType: values.residueType });
    } else if (def && values.op) {
      props.onChosen({ kind: 'entity', def, op: values.op, recordId: values.recordId ?? null });
    }
  }

  return (
    <Modal
      open
      title="Stage a change"
      okText="Continue"
      onOk={() => void next()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Form<PickerValues>
        form={form}
        name="stage-picker"
        layout="vertical"
        onValuesChange={(changed: PickerValues) => {
          if ('target' in changed) form.setFieldsValue({ op: undefined, recordId: null });
          if ('op' in changed) form.setFieldsValue({ recordId: null });
        }}
      >
        <Form.Item
          label="Record type"
          name="target"
          rules={[{ required: true, message: 'Choose what the change is to' }]}
        >
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            options={[
              ...STAGEABLE_DEFS.map((candidate) => ({
                value: candidate.key,
                label: candidate.label,
              })),
              { value: POLICY_TARGET, label: 'Cleaning limit policy' },
            ]}
          />
        </Form.Item>
        {isPolicy ? (
          <Form.Item
            label="Residue type"
            name="residueType"
            rules={[{ required: true, message: 'Choose the policy' }]}
          >
            <Select options={RESIDUE_TYPES.map((type) => ({ value: type, label: type }))} />
          </Form.Item>
        ) : null}
        {def ? (
          <Form.Item
            label="Change"
            name="op"
            rules={[{ required: true, message: 'Choose what to do' }]}
            extra={
              ops.length === 0 && permissions.isKnown
                ? `You may not change ${lowerLabel(def.pluralLabel)}.`
                : null
            }
          >
            <Select
              options={ops.map((name) => ({
                value: name,
                label: name === 'create' ? `${OP_LABELS[name]} new` : OP_LABELS[name],
              }))}
            />
          </Form.Item>
        ) : null}
        {def && op && op !== 'create' ? (
          <Form.Item
            label={def.label}
            name="recordId"
            rules={[{ required: true, message: 'Choose the record' }]}
          >
            <RecordPicker def={def} archived={op === 'restore'} />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}

/** The staged change's own id and values, when an existing one is opened again. */
interface Restaged {
  id: number;
  values: Record<string, unknown>;
}

/**
 * Sends a new staged change, or the new values of one staged before, at the assessment's version
 * when the form opened (a live update does not move it; a conflict does, once it was said).
 */
function useStage(assessment: TChangeAssessment) {
  const base = useEditBase(assessment.version);
  const write = useChangeWrite(
    (scope, { body, changeId }: { body: Omit<StagedChangeBody, 'version'>; changeId?: number }) =>
      changeId === undefined
        ? changeCalls.stage(scope, assessment.id, { ...body, version: base.version })
        : changeCalls.editChange(scope, assessment.id, changeId, {
            values: body.values ?? {},
            reason: body.reason,
            version: base.version,
          }),
  );
  return {
    mutateAsync: (variables: Parameters<typeof write.mutateAsync>[0]) =>
      write.mutateAsync(variables).catch((error: unknown) => {
        if (isApiError(error) && error.errName === 'VersionConflictError') base.follow();
        throw error;
      }),
  };
}

function EntityStage(props: {
  assessment: TChangeAssessment;
  choice: Extract<Choice, { kind: 'entity' }>;
  change?: Restaged;
  onClose: () => void;
}) {
  const { def, op, recordId } = props.choice;
  const scope = useFacilityScope();
  const stage = useStage(props.assessment);
  const needsRecord = op !== 'create' && recordId !== null;
  const record = useQuery({
    queryKey: entityKeys.detail(scope.facilityId, def, recordId ?? 0),
    queryFn: ({ signal }) => getEntity(scope, def, recordId ?? 0, signal),
    enabled: needsRecord,
    staleTime: 0,
  });
  const label = lowerLabel(def.label);
  const submit = async (save: EntityFormSave) => {
    await stage.mutateAsync({
      changeId: props.change?.id,
      body: {
        op,
        entity: def.key,
        ...(save.base ? { recordId: save.base.id, recordVersion: save.base.version } : {}),
        values: save.values,
        reason: save.reason,
      },
    });
  };
  if (needsRecord && record.isError)
    return (
      <Modal open title="Stage a change" footer={null} onCancel={props.onClose}>
        <Alert type="error" showIcon title={record.error.message} />
      </Modal>
    );
  if (needsRecord && record.isPending) return <Spin />;
  const base: EntityRecord | null = record.data ?? null;
  const name = String(base?.name ?? base?.id ?? '');

  if (op === 'archive' || op === 'restore') {
    return (
      <ReasonDialog
        title={`Stage: ${OP_LABELS[op].toLowerCase()} ${label} '${name}'`}
        okText="Stage change"
        danger={op === 'archive'}
        description={`Nothing changes until the change assessment is approved; then the ${label} is ${op === 'archive' ? 'archived' : 'restored'}.`}
        onSubmit={({ reason }) => submit({ values: {}, reason, base })}
        onClose={props.onClose}
      />
    );
  }
  return (
    <EntityFormDrawer
      def={def}
      record={base}
      target={{
        title: base ? `Stage: edit ${label} '${name}'` : `Stage: add ${label}`,
        okText: 'Stage change',
        ...(props.change ? { values: props.change.values } : {}),
        submit,
      }}
      onClose={props.onClose}
    />
  );
}

function PolicyStage(props: {
  assessment: TChangeAssessment;
  residueType: ResidueType;
  change?: { id: number; values: Partial<PolicyFields> };
  onClose: () => void;
}) {
  const scope = useFacilityScope();
  const stage = useStage(props.assessment);
  const { residueType } = props;
  // The same read the editor makes: the policy's record id names what is staged.
  const policy = useQuery({
    queryKey: rulesKeys.policy(scope.facilityId, residueType),
    queryFn: ({ signal }) => loadPolicy(scope, residueType, signal),
  });
  const policyId = policy.data?.controlled?.id;
  return (
    <Drawer
      open
      size={960}
      title={`Stage: edit the ${residueType} cleaning limit policy`}
      onClose={props.onClose}
      keyboard={false}
      mask={{ closable: false }}
    >
      {policy.isSuccess && policyId === undefined ? (
        <Alert
          type="warning"
          showIcon
          title="This policy has no record yet"
          description="Save the policy once on the policies screen, then stage its changes here."
        />
      ) : (
        <PolicyTab
          residueType={residueType}
          canEdit
          target={{
            okText: 'Stage change',
            ...(props.change ? { values: props.change.values } : {}),
            submit: async (changes, version, reason) => {
              await stage.mutateAsync({
                changeId: props.change?.id,
                body: {
                  op: 'update',
                  entity: POLICY_TARGET,
                  recordId: policyId,
                  recordVersion: version,
                  // The policy is named by its record id; its residue type is not a value.
                  values: changes,
                  reason,
                },
              });
              props.onClose();
            },
          }}
        />
      )}
    </Drawer>
  );
}
