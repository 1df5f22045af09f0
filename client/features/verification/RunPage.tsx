import { Alert, Card, Flex, Space, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { isApiError } from '#client/api/api-error.ts';
import { Link, useParams } from 'react-router';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';
import type { TRun } from '#core/schemas/verification.schemas.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { ControlledRecordPanel } from '#client/shared/records/ControlledRecordPanel.tsx';
import { CleaningEventForm } from './CleaningEventForm.tsx';
import { DeviationsPanel } from './DeviationsPanel.tsx';
import { InspectionCard } from './InspectionCard.tsx';
import { MicrobialResults } from './MicrobialResults.tsx';
import { ReleaseTag } from '#client/shared/verification/ReleaseTag.tsx';
import { ResultsEntry } from './ResultsEntry.tsx';
import { SubmitRefusal } from './SubmitRefusal.tsx';
import { invalidateRun, runPath, useRun } from './verification-api.ts';
import { RecordReportButton } from '#client/shared/reports/RecordReportButton.tsx';
import { verificationKeys } from '#client/shared/query-keys.ts';

const STATUS_LABELS: Record<TRun['status'], string> = {
  NotStarted: 'Not started',
  InProgress: 'In progress',
  BeingReviewed: 'Being reviewed',
  BeingApproved: 'Being approved',
  Completed: 'Completed',
};

const VERDICT_COLOURS: Record<TRun['verdict'], string> = {
  Pass: 'green',
  Fail: 'red',
  Invalidated: 'purple',
  Pending: 'default',
};

/** /runs/:id — a run executed at the line: event, results per location, deviations, signatures. */
export function RunPage() {
  const id = Number(useParams().id);
  const run = useRun(id);
  if (run.isError) return <LoadErrorAlert title="Could not load the run" query={run} />;
  if (run.isPending) return <Spin />;
  return <LoadedRun run={run.data} />;
}

function LoadedRun({ run }: { run: TRun }) {
  const scope = useFacilityScope();
  const client = useQueryClient();
  const permissions = usePermissions();
  // A closed study's runs are frozen with its outcome: shown read-only, not refused on save.
  const canModify = permissions.can('QualificationTask', 'Modify') && !run.studyClosed;
  // Submitted runs are locked: the server answers 409 TransactionLocked to any change.
  const isOpen = run.status === 'NotStarted' || run.status === 'InProgress';
  const reload = () =>
    void client.invalidateQueries({ queryKey: verificationKeys.run(scope.facilityId, run.id) });
  const title = `${run.studyNumber} run ${run.sequence}`;
  // A refused Submit is shown where it is fixed: a missing decision or an open deviation in the
  // deviations, anything else by the Submit button; until the run changes.
  const [refusal, setRefusal] = useState<{ message: string; version: number } | null>(null);
  const refused = refusal?.version === run.version ? refusal.message : null;
  const aboutDeviations =
    refused !== null && /^(No decision on|A run with an open deviation)/.test(refused);
  return (
    <Flex vertical gap="large">
      <Card>
        <Space orientation="vertical" size={4}>
          <Link to={`/studies/${run.studyId}`}>← Study {run.studyNumber}</Link>
          <Typography.Title level={3} style={{ margin: 0 }}>
            Run {run.sequence}
          </Typography.Title>
          <Space wrap>
            <Tag data-testid="run-status">{STATUS_LABELS[run.status]}</Tag>
            <ReleaseTag flag={run.releaseFlag} reasons={run.releaseReasons} />
            <Tag color={VERDICT_COLOURS[run.verdict]} data-testid="run-verdict">
              Verdict: {run.verdict}
            </Tag>
            <RecordReportButton kind="run" id={run.id} />
            {canModify && isOpen ? (
              <Link to="/verification/results-import">Import results from the laboratory</Link>
            ) : null}
          </Space>
          {run.releaseReasons.length > 0 ? (
            <ul aria-label="Release reasons" style={{ margin: 0, paddingInlineStart: 20 }}>
              {run.releaseReasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          ) : null}
          {run.studyClosed ? (
            <Alert
              type="info"
              showIcon
              data-testid="study-closed"
              title={`${run.studyNumber} is closed: run ${run.sequence} can no longer change.`}
            />
          ) : null}
        </Space>
      </Card>
      <CleaningEventForm run={run} canEdit={canModify && isOpen} onConflict={reload} />
      <InspectionCard run={run} canEdit={canModify && isOpen} onConflict={reload} />
      <ResultsEntry run={run} canEnter={canModify && isOpen} onConflict={reload} />
      <MicrobialResults run={run} canEnter={canModify && isOpen} onConflict={reload} />
      <DeviationsPanel
        run={run}
        canEdit={canModify && isOpen}
        refusal={aboutDeviations ? refused : null}
      />
      <Card title="Approval">
        <SubmitRefusal message={aboutDeviations ? null : refused} />
        <ControlledRecordPanel
          documentType="Run"
          documentId={run.id}
          title={title}
          state={run.controlled}
          canModify={canModify}
          path={runPath(scope, run.id)}
          onSigned={() => {
            setRefusal(null);
            reload();
            void invalidateRun(client, scope.facilityId);
          }}
          onRefused={(error) => {
            if (isApiError(error) && error.status === 409)
              setRefusal({ message: error.message, version: run.version });
          }}
        />
      </Card>
    </Flex>
  );
}
