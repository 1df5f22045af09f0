import { Col, Empty, List, Row, Statistic, Tag } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { TFailures } from '#core/schemas/dashboard.schemas.ts';

/**
 * Every failure, counted and listed with links: runs whose verdict is Fail (open ones still
 * need a decision on each failure) and Failed studies. Nothing failed: it says so.
 */
export function FailuresTile({ failures }: { failures: TFailures }) {
  const { failedRuns, failedStudies } = failures;
  if (failedRuns.count === 0 && failedStudies.count === 0)
    return <Empty description="No run or study has failed." />;
  return (
    <Row gutter={16}>
      <FailureList
        title="Failed runs"
        count={failedRuns.count}
        items={failedRuns.runs.map((run) => ({
          key: run.id,
          node: (
            <>
              <Link to={`/runs/${run.id}`}>
                {run.studyNumber} run {run.sequence}
              </Link>{' '}
              {run.completed ? <Tag>Completed</Tag> : <Tag color="orange">Open</Tag>}
            </>
          ),
        }))}
      />
      <FailureList
        title="Failed studies"
        count={failedStudies.count}
        items={failedStudies.studies.map((study) => ({
          key: study.id,
          node: (
            <Link to={`/studies/${study.id}`}>
              {study.number} {study.title}
            </Link>
          ),
        }))}
      />
    </Row>
  );
}

function FailureList(props: {
  title: string;
  count: number;
  items: { key: number; node: ReactNode }[];
}) {
  return (
    <Col xs={24} md={12}>
      <Statistic title={props.title} value={props.count} />
      <List
        size="small"
        aria-label={props.title}
        dataSource={props.items}
        rowKey="key"
        renderItem={(item) => <List.Item>{item.node}</List.Item>}
      />
    </Col>
  );
}
