import { Form, Select } from 'antd';
import { STUDY_TYPES } from '#core/schemas/cleaning-assessments.schemas.ts';
import type { TStudy, TStudyOrigin } from '#core/schemas/verification.schemas.ts';
import { ReasonDialog } from '../reason/ReasonDialog.tsx';
import { defByPath } from '../master-data/entity-registry.ts';
import { useEntityOptions } from '../master-data/entity-queries.ts';
import { controlledStateOf } from '../records/record-actions.ts';
import { useTasks } from '../cleaning-assessments/cleaning-assessments-api.ts';
import { useChangeAssessments } from '../change-assessments/change-assessments-api.ts';
import { usePermissions } from '../permissions.ts';
import { StudyDescriptionField, StudyTitleField } from './EditStudyModal.tsx';
import { studyCalls, useStudyWrite } from './studies-api.ts';
import { hasApprovedVersion } from './study-format.ts';
import type { StudyCreate } from './studies-api.ts';
import { lowerLabel } from '#core/entities/labels.ts';

interface StudyFormValues {
  title: string;
  studyType: StudyCreate['studyType'];
  protocolId: number;
  originKind: TStudyOrigin['kind'];
  originId?: number;
  description?: string;
}

/** What the modal starts from: a qualification task fills in its origin and study type. */
export interface NewStudyDefaults {
  title?: string;
  studyType?: StudyCreate['studyType'];
  origin?: TStudyOrigin;
}

const ORIGIN_OPTIONS = [
  { value: 'none', label: 'None' },
  { value: 'qualificationTask', label: 'Qualification task' },
  { value: 'changeAssessment', label: 'Change assessment' },
];

/** The protocols a study may follow: those with an approved version (the study pins it). */
function useApprovedProtocols() {
  const options = useEntityOptions(defByPath('protocols'));
  const startable = (options.data?.data ?? []).flatMap((record) => {
    const state = controlledStateOf(record);
    return state && hasApprovedVersion(state) ? [{ record, state }] : [];
  });
  return {
    isPending: options.isPending,
    options: startable.map(({ record, state }) => ({
      value: record.id,
      label: [
        record.protocolNumber,
        record.name,
        state.status === 'Approved' ? '' : '(the approved version; a new one is being revised)',
      ]
        .filter(Boolean)
        .join(' '),
    })),
  };
}

/** The select of an origin; only the chosen kind's records are loaded. */
function OriginSelect(props: {
  label: string;
  empty: string;
  options: { value: number; label: string }[] | undefined;
  id?: string;
  value?: number;
  onChange?: (value: number) => void;
}) {
  const { label, empty, options, ...rest } = props;
  return (
    <Select
      {...rest}
      aria-label={label}
      showSearch={{ optionFilterProp: 'label' }}
      loading={options === undefined}
      options={options ?? []}
      notFoundContent={options === undefined ? 'Loading…' : empty}
    />
  );
}

function TaskOrigin(props: { id?: string; value?: number; onChange?: (value: number) => void }) {
  const tasks = useTasks({ status: 'Accepted' }, { pageNumber: 1, pageLimit: 100 });
  return (
    <OriginSelect
      {...props}
      label="Accepted qualification task"
      empty="No accepted qualification tasks"
      options={tasks.data?.qualificationTasks.map((task) => ({
        value: task.id,
        label: `${task.product} on ${task.train}: ${task.proposedStudyType}`,
      }))}
    />
  );
}

function ChangeOrigin(props: { id?: string; value?: number; onChange?: (value: number) => void }) {
  const changes = useChangeAssessments({ pageNumber: 1, pageLimit: 100 });
  return (
    <OriginSelect
      {...props}
      label="Change assessment"
      empty="No change assessments"
      options={changes.data?.changeAssessments.map((change) => ({
        value: change.id,
        label: `${change.number} ${change.title}`,
      }))}
    />
  );
}

function OriginPicker({ kind }: { kind: TStudyOrigin['kind'] }) {
  const permissions = usePermissions();
  if (kind === 'none') return null;
  const isTask = kind === 'qualificationTask';
  const label = isTask ? 'Accepted qualification task' : 'Change assessment';
  if (!isTask && !permissions.can('FacilityCleaningEvaluation', 'Get')) return null;
  return (
    <Form.Item
      label={label}
      name="originId"
      rules={[{ required: true, message: `Choose the ${lowerLabel(label)}` }]}
    >
      {isTask ? <TaskOrigin /> : <ChangeOrigin />}
    </Form.Item>
  );
}

/** A new study: its title, type, the Approved protocol it follows and where it came from. */
export function NewStudyModal(props: {
  defaults?: NewStudyDefaults;
  onCreated: (study: TStudy) => void;
  onClose: () => void;
}) {
  const [form] = Form.useForm<StudyFormValues>();
  const create = useStudyWrite(studyCalls.create);
  const protocols = useApprovedProtocols();
  const originKind = Form.useWatch('originKind', form) ?? props.defaults?.origin?.kind ?? 'none';
  const origin = props.defaults?.origin;

  async function save(values: StudyFormValues): Promise<void> {
    const body: StudyCreate = {
      title: values.title,
      studyType: values.studyType,
      protocolId: values.protocolId,
      description: values.description ?? '',
      origin:
        values.originKind === 'none' || values.originId === undefined
          ? { kind: 'none' }
          : { kind: values.originKind, id: values.originId },
    };
    props.onCreated(await create.mutateAsync(body));
  }

  return (
    <ReasonDialog<StudyFormValues>
      form={form}
      name="new-study"
      title="New study"
      okText="Create study"
      width={640}
      initialValues={{
        title: props.defaults?.title,
        studyType: props.defaults?.studyType,
        originKind: origin?.kind ?? 'none',
        originId: origin && origin.kind !== 'none' ? origin.id : undefined,
        description: '',
      }}
      askReason={false}
      onSubmit={save}
      onClose={props.onClose}
    >
      <StudyTitleField />
      <Form.Item
        label="Study type"
        name="studyType"
        rules={[{ required: true, message: 'Choose the type of study' }]}
      >
        <Select
          aria-label="Study type"
          options={STUDY_TYPES.map((type) => ({ value: type, label: type }))}
        />
      </Form.Item>
      <Form.Item
        label="Protocol"
        name="protocolId"
        tooltip="An Approved protocol; the study follows the version in force now"
        rules={[{ required: true, message: 'Choose an Approved protocol' }]}
      >
        <Select
          aria-label="Protocol"
          showSearch={{ optionFilterProp: 'label' }}
          loading={protocols.isPending}
          options={protocols.options}
          notFoundContent={
            protocols.isPending
              ? 'Loading…'
              : 'No Approved protocols yet: approve one under Protocols first'
          }
        />
      </Form.Item>
      <Form.Item label="Origin" name="originKind">
        <Select
          aria-label="Origin"
          options={ORIGIN_OPTIONS}
          onChange={() => form.setFieldValue('originId', undefined)}
        />
      </Form.Item>
      <OriginPicker kind={originKind} />
      <StudyDescriptionField />
    </ReasonDialog>
  );
}
