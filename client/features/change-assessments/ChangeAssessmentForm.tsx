import { Form, Input, Select } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { CHANGE_TYPES, type TChangeAssessment } from '#core/schemas/change-assessments.schemas.ts';
import { mocRecordsDef } from '#core/entities/defs/documents.def.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { ReferenceSelect } from '#client/shared/master-data/ReferenceSelect.tsx';
import {
  changeCalls,
  changeKeys,
  useChangeWrite,
} from '#client/shared/change-assessments/change-assessments-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { useEditBase } from '#client/shared/use-edit-base.ts';
import type { ChangeAssessmentCreate } from '#client/shared/change-assessments/change-assessments-api.ts';

type HeaderValues = ChangeAssessmentCreate;

/** The header of an assessment: new, or edited while it is being built (with a reason). */
export function ChangeAssessmentForm(props: {
  assessment: TChangeAssessment | null;
  onSaved: (assessment: TChangeAssessment) => void;
  onClose: () => void;
}) {
  const { assessment } = props;
  const [form] = Form.useForm<HeaderValues>();
  const scope = useFacilityScope();
  const client = useQueryClient();
  // The assessment's version when the dialog opened: a live update does not move it.
  const base = useEditBase(assessment?.version ?? 0);
  const create = useChangeWrite(changeCalls.create);
  const edit = useChangeWrite(
    (scope, values: HeaderValues & { reason: string; version: number; id: number }) => {
      const { id, ...body } = values;
      return changeCalls.edit(scope, id, body);
    },
  );
  async function save(values: HeaderValues): Promise<void> {
    const body = { ...values, description: values.description ?? '', mocId: values.mocId ?? null };
    const saved = assessment
      ? await edit.mutateAsync({
          ...body,
          reason: values.reason ?? '',
          version: base.version,
          id: assessment.id,
        })
      : await create.mutateAsync(body);
    props.onSaved(saved);
  }
  return (
    <ReasonDialog<HeaderValues>
      canSubmit={!base.settling}
      form={form}
      name="change-assessment-form"
      title={assessment ? `Edit ${assessment.number}` : 'New change assessment'}
      okText={assessment ? 'Save' : 'Create'}
      width={640}
      initialValues={
        assessment
          ? {
              title: assessment.title,
              changeType: assessment.changeType,
              description: assessment.description,
              mocId: assessment.mocId,
            }
          : { description: '', mocId: null }
      }
      askReason={assessment !== null}
      onSubmit={save}
      onConflict={() => {
        base.follow();
        if (assessment)
          void client.invalidateQueries({
            queryKey: changeKeys.detail(scope.facilityId, assessment.id),
          });
      }}
      onClose={props.onClose}
    >
      <Form.Item
        label="Title"
        name="title"
        rules={[{ required: true, whitespace: true, message: 'A title is required' }]}
      >
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item
        label="Change type"
        name="changeType"
        rules={[{ required: true, message: 'Choose the type of change' }]}
      >
        <Select options={CHANGE_TYPES.map((type) => ({ value: type, label: type }))} />
      </Form.Item>
      <Form.Item label="Description" name="description">
        <Input.TextArea rows={4} maxLength={5000} />
      </Form.Item>
      <Form.Item
        label="Change-of-control record"
        name="mocId"
        tooltip="The change-control (MOC) record this assessment evaluates"
      >
        <ReferenceSelect def={mocRecordsDef} aria-label="Change-of-control record" />
      </Form.Item>
    </ReasonDialog>
  );
}
