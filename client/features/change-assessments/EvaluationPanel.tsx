import { Alert, Button, Card, Col, Flex, Row, Statistic, Typography, message } from 'antd';
import { useState } from 'react';
import type { TChangeAssessment } from '#core/schemas/change-assessments.schemas.ts';
import { showSaveError } from '#client/api/form-errors.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import {
  changeCalls,
  downloadImpact,
  useChangeWrite,
} from '#client/shared/change-assessments/change-assessments-api.ts';
import { pairsListedNote, summaryCounts } from '#client/shared/change-assessments/impact-format.ts';
import { StayingPairs } from './StayingPairs.tsx';

/** Evaluate (synchronous: a couple of seconds on a large facility), and what it found. */
export function EvaluationPanel(props: { assessment: TChangeAssessment; canEvaluate: boolean }) {
  const { assessment } = props;
  const { evaluation } = assessment;
  const scope = useFacilityScope();
  const { formatDateTime } = useDateFormat();
  const [exporting, setExporting] = useState<'xlsx' | 'pdf' | null>(null);
  const evaluate = useChangeWrite((s, version: number) =>
    changeCalls.evaluate(s, assessment.id, version),
  );
  const exportAs = (format: 'xlsx' | 'pdf') => {
    setExporting(format);
    downloadImpact(scope, assessment, format)
      .then((name) => void message.success(`${name} saved`))
      .catch((error: unknown) => showSaveError(error))
      .finally(() => setExporting(null));
  };
  const note = evaluation ? pairsListedNote(evaluation.summary) : null;
  return (
    <Card
      title="Evaluation"
      aria-label="Evaluation"
      extra={
        <Flex gap="small" wrap>
          {evaluation ? (
            <>
              <Button loading={exporting === 'xlsx'} onClick={() => exportAs('xlsx')}>
                Export impact (Excel)
              </Button>
              <Button loading={exporting === 'pdf'} onClick={() => exportAs('pdf')}>
                Export impact (PDF)
              </Button>
            </>
          ) : null}
          {props.canEvaluate && !evaluation?.frozen ? (
            <Button
              type="primary"
              loading={evaluate.isPending}
              disabled={assessment.changes.length === 0}
              // A refusal (409: changed meanwhile, nothing staged) is shown as the server says it.
              onClick={() =>
                evaluate.mutate(assessment.version, { onError: (e) => showSaveError(e) })
              }
            >
              {evaluate.isPending ? 'Evaluating…' : evaluation ? 'Evaluate again' : 'Evaluate'}
            </Button>
          ) : null}
        </Flex>
      }
    >
      {!evaluation ? (
        <Typography.Paragraph type="secondary">
          {assessment.changes.length === 0
            ? 'Stage the changes first; then evaluate them against the limits in force.'
            : 'Not evaluated yet: evaluating computes what the staged changes do to every limit of the facility, without changing anything.'}
        </Typography.Paragraph>
      ) : (
        <Flex vertical gap="middle">
          {evaluation.frozen && assessment.applied ? (
            <Alert
              type="info"
              showIcon
              title={`Applied ${formatDateTime(assessment.applied.at)}: the evaluation as approved`}
              description={`Evaluated ${formatDateTime(evaluation.evaluatedAt)}. This is the evaluation the approval signed, kept as it was: the change set below was applied on approval, so it is no longer compared with the facility's data.`}
            />
          ) : evaluation.current ? (
            <Alert
              type="success"
              showIcon
              title={`Current: evaluated ${formatDateTime(evaluation.evaluatedAt)}`}
              description={
                evaluation.undecided > 0
                  ? `${evaluation.undecided} impact ${evaluation.undecided === 1 ? 'item needs' : 'items need'} a decision before the change can be submitted.`
                  : 'Every impact item has a decision.'
              }
            />
          ) : (
            <Alert
              type="warning"
              showIcon
              title="The facility's data changed since this evaluation — evaluate again"
              description={`Evaluated ${formatDateTime(evaluation.evaluatedAt)}.`}
            />
          )}
          <Row gutter={[16, 16]}>
            {summaryCounts(evaluation.summary).map((count) => (
              <Col key={count.label} xs={12} sm={8} md={6} lg={4}>
                <Statistic
                  title={count.label}
                  value={count.value}
                  styles={
                    count.value > 0 &&
                    ['Pairs tightened', 'Below LOQ', 'Results at risk'].includes(count.label)
                      ? { content: { color: 'var(--ant-color-error)' } }
                      : undefined
                  }
                />
              </Col>
            ))}
          </Row>
          {note ? <Typography.Text type="secondary">{note}</Typography.Text> : null}
          {(evaluation.summary.criteriaMoved ?? 0) > 0 ? (
            <StayingPairs assessmentId={assessment.id} summary={evaluation.summary} />
          ) : null}
        </Flex>
      )}
    </Card>
  );
}
