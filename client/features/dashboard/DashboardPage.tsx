import { Alert, Card, Col, Empty, List, Row, Statistic, Steps, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LIMIT_TRACKER_DAYS } from '#core/schemas/dashboard.schemas.ts';
import type { Facility } from '#client/api/auth-types.ts';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';
import { usePermissions } from '#client/shared/permissions.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { DashboardBars } from './DashboardBars.tsx';
import { FailuresTile } from './FailuresTile.tsx';
import { useDashboard, useMacLimitTracker, useToxicityScore } from './dashboard-api.ts';
import {
  equipmentBars,
  firstSteps,
  plural,
  releaseBars,
  timesLoq,
  type Bar,
} from './dashboard-tiles.ts';

function Tile({ title, to, children }: { title: string; to?: string; children: ReactNode }) {
  return (
    <Card
      title={title}
      size="small"
      extra={to ? <Link to={to}>Open the records</Link> : null}
      style={{ height: '100%' }}
    >
      {children}
    </Card>
  );
}

/** Home: where the facility stands, each tile linked to the records behind it (issue 13). */
export function DashboardPage({ facility }: { facility: Facility }) {
  const permissions = usePermissions();
  const home = useDashboard();
  const toxicity = useToxicityScore(permissions.can('API', 'Get'));
  const tracker = useMacLimitTracker(permissions.can('RiskCalculation', 'Get'));
  // A limit's move on the facility's calendar, as every screen writes dates (not as ISO).
  const { formatDate } = useDateFormat();

  if (home.isError) return <LoadErrorAlert title="Could not load the dashboard" query={home} />;
  if (!home.data) return <Card loading title={`Where ${facility.name} stands`} />;
  const d = home.data;
  const steps = firstSteps(d.setup);

  return (
    <div className="dashboard">
      <Typography.Title level={2}>Where {facility.name} stands</Typography.Title>
      {steps.length > 0 ? (
        <Card title="Getting started" size="small" style={{ marginBottom: 16 }}>
          <Typography.Paragraph>
            The limits, worst cases and studies of a facility are built from its master data. What
            is still missing here:
          </Typography.Paragraph>
          <Steps
            direction="vertical"
            size="small"
            current={-1}
            items={steps.map((step) => ({
              title: <Link to={step.to}>{step.title}</Link>,
              description: step.description,
            }))}
          />
        </Card>
      ) : null}
      <Row gutter={[16, 16]}>
        {d.equipmentStatus ? (
          <Col xs={24} lg={12}>
            <Tile title="Equipment validation status" to="/studies">
              {d.equipmentStatus.equipmentCount === 0 ? (
                <Empty description="No equipment yet: add equipment and map it to productions." />
              ) : (
                <>
                  <DashboardBars
                    label="Equipment by validation status"
                    bars={equipmentBars(
                      d.equipmentStatus,
                      d.riskGoal?.current?.assessmentId ?? null,
                    )}
                  />
                  {d.equipmentStatus.overdue.length > 0 ? (
                    <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
                      Periodic verification overdue (validated over{' '}
                      {d.equipmentStatus.periodicVerificationDays} days ago):{' '}
                      {d.equipmentStatus.overdue.map((item, i) => (
                        <span key={item.id}>
                          {i > 0 ? ', ' : ''}
                          <Link to={`/master-data/equipments/${item.id}`}>{item.name}</Link>
                        </span>
                      ))}
                    </Typography.Paragraph>
                  ) : null}
                  <Typography.Paragraph style={{ marginTop: 8 }}>
                    <Link to="/cleaning-assessments">
                      {plural(d.equipmentStatus.openQualificationTasks, 'open qualification task')}
                    </Link>
                  </Typography.Paragraph>
                </>
              )}
            </Tile>
          </Col>
        ) : null}
        <Col xs={24} lg={12}>
          <Tile title="Waiting for my signature" to="/my-approvals">
            {d.mySignatures.count === 0 ? (
              <Empty description="Nothing is waiting for your signature." />
            ) : (
              <>
                <Statistic
                  value={d.mySignatures.count}
                  // The space is part of the text: a reader (and a screen reader) gets "1 record".
                  suffix={d.mySignatures.count === 1 ? '\u00a0record' : '\u00a0records'}
                />
                <List
                  size="small"
                  dataSource={d.mySignatures.items}
                  renderItem={(item) => (
                    <List.Item>
                      <Link to="/my-approvals">{item.title}</Link> <Tag>{item.action}</Tag>
                    </List.Item>
                  )}
                />
              </>
            )}
          </Tile>
        </Col>
        {d.releaseFlags ? (
          <Col xs={24} lg={12}>
            <Tile title={`Release flags of today's runs (${d.releaseFlags.date})`} to="/studies">
              {d.releaseFlags.runs.length === 0 ? (
                <Empty description="No run ended today." />
              ) : (
                <>
                  <DashboardBars
                    label="Today's runs by release flag"
                    bars={releaseBars(d.releaseFlags)}
                  />
                  <List
                    size="small"
                    dataSource={d.releaseFlags.runs}
                    renderItem={(run) => (
                      <List.Item>
                        <Link to={`/runs/${run.id}`}>
                          {run.studyNumber} run {run.sequence}
                        </Link>
                      </List.Item>
                    )}
                  />
                </>
              )}
            </Tile>
          </Col>
        ) : null}
        {d.failures ? (
          <Col xs={24} lg={12}>
            <Tile title="Failures" to="/studies">
              <FailuresTile failures={d.failures} />
            </Tile>
          </Col>
        ) : null}
        {d.openChangeAssessments ? (
          <Col xs={24} lg={12}>
            <Tile title="Open change assessments by age" to="/change-control">
              {d.openChangeAssessments.open === 0 ? (
                <Empty description="No change assessment is open." />
              ) : (
                <>
                  <DashboardBars
                    label="Open change assessments by age"
                    bars={d.openChangeAssessments.byAge.map((bucket, i): Bar => ({
                      label: bucket.label,
                      value: bucket.count,
                      tone: i >= 2 ? 'warn' : 'neutral',
                    }))}
                  />
                  {d.openChangeAssessments.oldest ? (
                    <Typography.Paragraph style={{ marginTop: 8 }}>
                      Oldest:{' '}
                      <Link to={`/change-control/${d.openChangeAssessments.oldest.id}`}>
                        {d.openChangeAssessments.oldest.number}{' '}
                        {d.openChangeAssessments.oldest.title}
                      </Link>{' '}
                      ({plural(d.openChangeAssessments.oldest.ageDays, 'day')})
                    </Typography.Paragraph>
                  ) : null}
                </>
              )}
            </Tile>
          </Col>
        ) : null}
        {d.riskGoal ? (
          <Col xs={24} lg={12}>
            <Tile
              title="Risk goal against the current cleaning assessment"
              to="/cleaning-assessments"
            >
              {d.riskGoal.current === null ? (
                <Empty description="No cleaning assessment has completed yet: start one to compare the facility with its risk goal." />
              ) : (
                <Row gutter={16}>
                  <Col span={12}>
                    <Statistic
                      title={`Coverage by studies (goal ${d.riskGoal.minCoveragePercent ?? 'not set'} %)`}
                      value={d.riskGoal.current.coveragePercent}
                      suffix="%"
                    />
                    <GoalTag meets={d.riskGoal.current.meetsCoverage} />
                  </Col>
                  <Col span={12}>
                    <Statistic
                      title={`Highest risk score (goal ${d.riskGoal.maxRiskScore ?? 'not set'})`}
                      value={d.riskGoal.current.highestRiskScore ?? '—'}
                    />
                    <GoalTag meets={d.riskGoal.current.meetsRiskScore} />
                  </Col>
                </Row>
              )}
            </Tile>
          </Col>
        ) : null}
        {toxicity.data ? (
          <Col xs={24} lg={12}>
            <Tile title="Toxicity score of the actives" to="/master-data/apis">
              {toxicity.data.total === 0 ? (
                <Empty description="No actives yet: add the actives with their PDE/ADE." />
              ) : (
                <>
                  <DashboardBars
                    label="Actives by toxicity score"
                    bars={toxicity.data.bands
                      .map((band): Bar => ({
                        label: `${band.score} · ${band.label}`,
                        value: band.count,
                        tone: band.score >= 4 ? 'bad' : band.score === 3 ? 'warn' : 'good',
                      }))
                      .reverse()}
                  />
                  {toxicity.data.notRecorded > 0 ? (
                    <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
                      {plural(toxicity.data.notRecorded, 'active')} without a PDE/ADE.
                    </Typography.Paragraph>
                  ) : null}
                </>
              )}
            </Tile>
          </Col>
        ) : null}
        {tracker.data ? (
          <Col xs={24} lg={12}>
            <Tile title="MAC limit tracker" to="/limits/mac-matrix">
              <Typography.Text strong>
                Limits that moved in the last {LIMIT_TRACKER_DAYS} days
              </Typography.Text>
              {tracker.data.moves.length === 0 ? (
                <Typography.Paragraph type="secondary">
                  No approval has moved the limits in the last {LIMIT_TRACKER_DAYS} days.
                </Typography.Paragraph>
              ) : (
                <List
                  size="small"
                  dataSource={tracker.data.moves.slice(0, 5)}
                  renderItem={(move) => (
                    <List.Item>
                      {formatDate(move.at)}:{' '}
                      {move.changeAssessmentId ? (
                        <Link to={`/change-control/${move.changeAssessmentId}`}>{move.title}</Link>
                      ) : (
                        <Link to="/policies">{move.title}</Link>
                      )}
                    </List.Item>
                  )}
                />
              )}
              <Typography.Text strong>
                Pairs within a factor of {tracker.data.nearLoq.factor} of the LOQ
              </Typography.Text>
              {tracker.data.nearLoq.note ? (
                <Alert type="info" showIcon message={tracker.data.nearLoq.note} />
              ) : tracker.data.nearLoq.count === 0 ? (
                <Typography.Paragraph type="secondary">
                  Every limit is at least {tracker.data.nearLoq.factor} × the LOQ of the analytical
                  methods.
                </Typography.Paragraph>
              ) : (
                <>
                  <Statistic value={tracker.data.nearLoq.count} suffix="pairs" />
                  <List
                    size="small"
                    dataSource={tracker.data.nearLoq.pairs.slice(0, 5)}
                    renderItem={(pair) => (
                      <List.Item>
                        <Link to="/limits/mac-matrix">
                          {pair.previous} → {pair.next}
                        </Link>{' '}
                        {pair.method}: {timesLoq(pair.ratio)}
                      </List.Item>
                    )}
                  />
                </>
              )}
            </Tile>
          </Col>
        ) : null}
      </Row>
    </div>
  );
}

function GoalTag({ meets }: { meets: boolean | null }) {
  if (meets === null) return <Tag>No goal set</Tag>;
  return meets ? <Tag color="green">Goal met</Tag> : <Tag color="red">Goal missed</Tag>;
}
