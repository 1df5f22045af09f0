import { formatNumber } from '#core/units/format-number.ts';
import { Empty, Flex, List, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { recordLink } from '#client/shared/records/record-links.ts';
import type { TAssessmentResult } from '#core/schemas/cleaning-assessments.schemas.ts';

type Result = TAssessmentResult;
type Gap = Result['diff']['newGaps'][number];

const number = (value: number | null) => (value === null ? '—' : formatNumber(value, 3));

/** The worst case of every equipment train, with the reason the data gives. */
export function WorstCasesTable({ worstCases }: { worstCases: Result['worstCases'] }) {
  return (
    <Table
      aria-label="Worst case per train"
      size="small"
      rowKey="trainId"
      dataSource={worstCases}
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
      locale={{ emptyText: <Empty description="No equipment train makes a product yet." /> }}
      columns={[
        { title: 'Train', dataIndex: 'train' },
        {
          title: 'Worst case',
          dataIndex: 'product',
          render: (product: string | null) => product ?? '—',
        },
        {
          title: 'Why',
          dataIndex: 'reason',
          render: (reason: string, row: Result['worstCases'][number]) =>
            row.override ? (
              <>
                {reason}
                <Typography.Paragraph type="warning" style={{ margin: 0 }}>
                  Override: {row.override}
                </Typography.Paragraph>
              </>
            ) : (
              reason
            ),
        },
        { title: 'Lowest MACO (mg)', dataIndex: 'lowestMaco', render: number, align: 'right' },
        {
          title: 'Lowest SAL (mg/cm²)',
          dataIndex: 'lowestSal',
          render: number,
          align: 'right',
        },
      ]}
    />
  );
}

/** Product and equipment groups; a product group names its representative. */
export function GroupsTable({ groups }: { groups: Result['groups'] }) {
  return (
    <Table
      aria-label="Groups"
      size="small"
      rowKey={(group) => `${group.kind}:${group.id}`}
      dataSource={groups}
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
      locale={{ emptyText: <Empty description="No product or equipment groups." /> }}
      columns={[
        {
          title: 'Kind',
          dataIndex: 'kind',
          width: 120,
          render: (kind: string) => (kind === 'product' ? 'Product group' : 'Equipment group'),
        },
        { title: 'Group', dataIndex: 'name' },
        {
          title: 'Representative',
          dataIndex: 'representative',
          render: (name: string | null, group) =>
            group.kind === 'product' ? (name ?? 'None: no member has limits') : '—',
        },
        {
          title: 'Members',
          dataIndex: 'members',
          render: (members: string[]) => members.map((m) => <Tag key={m}>{m}</Tag>),
        },
      ]}
    />
  );
}

function GapList({ title, gaps, empty }: { title: string; gaps: Gap[]; empty: string }) {
  return (
    <List
      size="small"
      bordered
      header={<Typography.Text strong>{title}</Typography.Text>}
      dataSource={gaps}
      locale={{ emptyText: empty }}
      renderItem={(gap) => (
        <List.Item>
          {gap.product} on {gap.train}
        </List.Item>
      )}
    />
  );
}

/** What moved between the prior assessment and this one, and the change assessments behind it. */
export function SincePriorPanel({ diff }: { diff: Result['diff'] }) {
  if (diff.priorId === null) {
    return <Empty description="The facility's first assessment: there is nothing to compare." />;
  }
  return (
    <Flex vertical gap="middle">
      <Typography.Text>
        Compared with <Link to={`/cleaning-assessments/${diff.priorId}`}>the prior assessment</Link>
        .
      </Typography.Text>
      <GapList title="New gaps" gaps={diff.newGaps} empty="No new gaps." />
      <GapList title="Closed gaps" gaps={diff.closedGaps} empty="No gap was closed." />
      <Table
        aria-label="Worst-case changes"
        size="small"
        rowKey="train"
        title={() => <Typography.Text strong>Worst-case changes</Typography.Text>}
        dataSource={diff.worstCaseChanges}
        pagination={false}
        locale={{ emptyText: 'No train has a new worst case.' }}
        columns={[
          { title: 'Train', dataIndex: 'train' },
          { title: 'Before', dataIndex: 'before', render: (v: string | null) => v ?? '—' },
          { title: 'Now', dataIndex: 'after', render: (v: string | null) => v ?? '—' },
        ]}
      />
      <List
        size="small"
        bordered
        header={<Typography.Text strong>Change assessments approved in between</Typography.Text>}
        dataSource={diff.changeAssessments}
        locale={{ emptyText: 'None: the changes were made without a change assessment.' }}
        renderItem={(change) => (
          <List.Item>
            <Link to={recordLink('ChangeAssessment', change.id) ?? ''}>
              {change.number} {change.title}
            </Link>
          </List.Item>
        )}
      />
    </Flex>
  );
}
