import { Form, Input } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { TStudy } from '#core/schemas/verification.schemas.ts';
import { ReasonDialog } from '../reason/ReasonDialog.tsx';
import { studyKeys } from '../query-keys.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { useEditBase } from '../use-edit-base.ts';
import { studyCalls, useStudyWrite } from './studies-api.ts';

interface HeaderValues {
  title: string;
  description: string;
  reason: string;
}

/** The study's header (title, description), changed with a reason at the version opened. */
export function EditStudyModal({ study, onClose }: { study: TStudy; onClose: () => void }) {
  const [form] = Form.useForm<HeaderValues>();
  const { facilityId } = useFacilityScope();
  const client = useQueryClient();
  // The study's version when the dialog opened: a live update does not move it.
  const base = useEditBase(study.controlled.version);
  const edit = useStudyWrite((scope, values: HeaderValues) =>
    studyCalls.edit(scope, study.id, { ...values, version: base.version }),
  );
  return (
    <ReasonDialog<HeaderValues>
      canSubmit={!base.settling}
      form={form}
      name="edit-study"
      title={`Edit ${study.number}`}
      okText="Save"
      width={640}
      initialValues={{ title: study.title, description: study.description }}
      askReason
      onSubmit={(values) => edit.mutateAsync({ ...values, description: values.description ?? '' })}
      onConflict={() => {
        base.follow();
        void client.invalidateQueries({ queryKey: studyKeys.detail(facilityId, study.id) });
      }}
      onClose={onClose}
    >
      <StudyTitleField />
      <StudyDescriptionField />
    </ReasonDialog>
  );
}

/** The header's fields, as the New study and Edit dialogs ask them. */
export function StudyTitleField() {
  return (
    <Form.Item
      label="Title"
      name="title"
      rules={[{ required: true, whitespace: true, message: 'A title is required' }]}
    >
      <Input maxLength={200} />
    </Form.Item>
  );
}

export function StudyDescriptionField() {
  return (
    <Form.Item label="Description" name="description">
      <Input.TextArea rows={3} maxLength={5000} />
    </Form.Item>
  );
}
