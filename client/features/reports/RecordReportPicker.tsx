import { Form, Select } from 'antd';
import { useAssessments } from '#client/shared/cleaning-assessments/cleaning-assessments-api.ts';
import { useChangeAssessments } from '#client/shared/change-assessments/change-assessments-api.ts';
import { useStudies, useStudyRuns } from '#client/shared/studies/studies-api.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import type { RecordReportKind } from '#client/shared/reports/record-report-kinds.ts';

// The latest records, newest first: older ones are reported from their own screens.
const LATEST = { pageNumber: 1, pageLimit: 200 };

interface Choice {
  value: number;
  label: string;
}

function RecordSelect({
  label,
  name = 'recordId',
  choices,
  loading,
  message,
}: {
  label: string;
  name?: string;
  choices: Choice[];
  loading: boolean;
  message: string;
}) {
  return (
    <Form.Item
      label={label}
      name={name}
      rules={[{ required: true, message }]}
      extra="Or use Report on the record's own screen."
    >
      <Select
        aria-label={label}
        showSearch={{ optionFilterProp: 'label' }}
        loading={loading}
        options={choices}
        notFoundContent={loading ? 'Loading…' : 'None in this facility yet'}
      />
    </Form.Item>
  );
}

function ChangeAssessmentSelect() {
  const list = useChangeAssessments(LATEST);
  const choices = (list.data?.changeAssessments ?? []).map((a) => ({
    value: a.id,
    label: `${a.number} ${a.title}`,
  }));
  return (
    <RecordSelect
      label="Change assessment"
      choices={choices}
      loading={list.isLoading}
      message="Choose the change assessment"
    />
  );
}

function CleaningAssessmentSelect() {
  const list = useAssessments(LATEST);
  const { formatDateTime } = useDateFormat();
  const choices = (list.data?.cleaningAssessments ?? []).map((a) => ({
    value: a.id,
    label: `${a.number}, started ${formatDateTime(a.startedAt)}`,
  }));
  return (
    <RecordSelect
      label="Cleaning assessment"
      choices={choices}
      loading={list.isLoading}
      message="Choose the cleaning assessment"
    />
  );
}

function StudySelect({ name }: { name: string }) {
  const list = useStudies(LATEST);
  const choices = (list.data?.data ?? []).map((s) => ({
    value: s.id,
    label: `${s.number} ${s.title}`,
  }));
  return (
    <RecordSelect
      label="Study"
      name={name}
      choices={choices}
      loading={list.isLoading}
      message="Choose the study"
    />
  );
}

function RunSelect({ studyId }: { studyId: number }) {
  const runs = useStudyRuns(studyId);
  const choices = (runs.data ?? []).map((r) => ({
    value: r.id,
    label: `Run ${r.sequence} (${r.status})`,
  }));
  return (
    <RecordSelect label="Run" choices={choices} loading={runs.isLoading} message="Choose the run" />
  );
}

/** The record a record report is about, chosen by its number and title. */
export function RecordReportPicker({ kind }: { kind: RecordReportKind }) {
  const studyId = Form.useWatch<number | undefined>('studyId');
  if (kind === 'change-assessment') return <ChangeAssessmentSelect />;
  if (kind === 'cleaning-assessment') return <CleaningAssessmentSelect />;
  if (kind === 'study') return <StudySelect name="recordId" />;
  return (
    <>
      <StudySelect name="studyId" />
      {studyId ? <RunSelect studyId={studyId} /> : null}
    </>
  );
}
