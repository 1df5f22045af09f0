import { Alert, Button, Flex, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import {
  DECISION_LABELS,
  IMPACT_KINDS,
  type TImpactItem,
  type TImpactKind,
} from '#core/schemas/change-assessments.schemas.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { formatChange } from '#client/shared/limits/what-if-format.ts';
import { useImpact } from '#client/shared/change-assessments/change-assessments-api.ts';
import type { ImpactQuery } from '#client/shared/change-assessments/change-assessments-api.ts';
import { DecisionForm } from './DecisionForm.tsx';
import { IMPACT_KIND_LABELS } from '#core/schemas/change-assessments.schemas.ts';
import { limitLines } from '#client/shared/change-assessments/impact-format.ts';
import { ImpactPairsDrawer } from './ImpactPairsDrawer.tsx';
import { serverPaging } from '#client/shared/paging.ts';

/**
 * The impact items of the evaluation, each with its decision: the decisions are taken here, on
 * one item or on every item chosen at once.
 */
export function ImpactTable(props: { assessmentId: number; version: number; canDecide: boolean }) {
  const { formatDateTime } = useDateFormat();
  const [query, setQuery] = useState<ImpactQuery>({ pageNumber: 1, pageLimit: 20 });
  const [selected, setSelected] = useState<TImpactItem[]>([]);
  const [deciding, setDeciding] = useState<TImpactItem[] | null>(null);
  const [pairsOf, setPairsOf] = useState<TImpactItem | null>(null);
  const impact = useImpact(props.assessmentId, query, true);

  const columns: TableProps<TImpactItem>['columns'] = [
    {
      key: 'subject',
      title: 'Subject',
      fixed: 'left',
      render: (_, item) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{item.subject}</Typography.Text>
          <Tag>{IMPACT_KIND_LABELS[item.kind]}</Tag>
        </Space>
      ),
    },
    { key: 'summary', dataIndex: 'summary', title: 'Summary' },
    {
      key: 'limits',
      title: 'Before → after',
      render: (_, item) => limitLines(item).map((line) => <div key={line}>{line}</div>),
    },
    {
      key: 'change',
      title: '% change',
      render: (_, item) => (
        <Typography.Text type={item.tightened ? 'danger' : undefined} data-testid="impact-change">
          {formatChange(item.changePercent)}
        </Typography.Text>
      ),
    },
    {
      key: 'pairs',
      title: 'Pairs',
      render: (_, item) =>
        item.pairs > 0 ? (
          <Button size="small" type="link" onClick={() => setPairsOf(item)}>
            {item.pairs}
          </Button>
        ) : (
          0
        ),
    },
    {
      key: 'decision',
      title: 'Decision',
      render: (_, item) =>
        item.decision ? (
          <Space orientation="vertical" size={0}>
            <Tag color="success">{DECISION_LABELS[item.decision.decision]}</Tag>
            <Typography.Text>{item.decision.justification}</Typography.Text>
            <Typography.Text type="secondary">
              {item.decision.decidedByName}, {formatDateTime(item.decision.decidedAt)}
            </Typography.Text>
          </Space>
        ) : (
          <Tag color="warning">Undecided</Tag>
        ),
    },
    ...(props.canDecide
      ? [
          {
            key: 'actions',
            title: 'Actions',
            render: (_: unknown, item: TImpactItem) => (
              <Button size="small" onClick={() => setDeciding([item])}>
                Decide
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <section aria-label="Impact">
      <Flex gap="middle" wrap align="center" style={{ marginBottom: 12 }}>
        <Select<TImpactKind | undefined>
          aria-label="Kind of impact"
          placeholder="Every kind of impact"
          allowClear
          style={{ width: 260 }}
          value={query.kind}
          options={IMPACT_KINDS.map((kind) => ({ value: kind, label: IMPACT_KIND_LABELS[kind] }))}
          onChange={(kind) => setQuery((current) => ({ ...current, kind, pageNumber: 1 }))}
        />
        <Space>
          <Switch
            aria-label="Undecided only"
            checked={query.undecided ?? false}
            onChange={(undecided) =>
              setQuery((current) => ({
                ...current,
                undecided: undecided || undefined,
                pageNumber: 1,
              }))
            }
          />
          <span>Undecided only</span>
        </Space>
        {props.canDecide ? (
          <Button disabled={selected.length === 0} onClick={() => setDeciding(selected)}>
            Decide on {selected.length} selected
          </Button>
        ) : null}
      </Flex>
      {impact.isError ? <Alert type="error" showIcon title={impact.error.message} /> : null}
      <Table<TImpactItem>
        rowKey="key"
        size="small"
        columns={columns}
        dataSource={impact.data?.items ?? []}
        loading={impact.isFetching}
        rowSelection={
          props.canDecide
            ? {
                selectedRowKeys: selected.map((item) => item.key),
                preserveSelectedRowKeys: true,
                onChange: (_keys, rows) => setSelected(rows),
              }
            : undefined
        }
        locale={{
          emptyText: impact.isPending
            ? ' '
            : query.undecided || query.kind
              ? 'No impact items match'
              : 'The change moves no limit: nothing to decide',
        }}
        pagination={serverPaging(
          query,
          impact.data?.total ?? 0,
          { one: 'impact item', many: 'impact items' },
          (pageNumber, pageLimit) => setQuery((current) => ({ ...current, pageNumber, pageLimit })),
        )}
        scroll={{ x: 'max-content' }}
      />
      {deciding ? (
        <DecisionForm
          assessmentId={props.assessmentId}
          version={props.version}
          items={deciding}
          onClose={() => {
            setDeciding(null);
            setSelected([]);
          }}
        />
      ) : null}
      {pairsOf ? (
        <ImpactPairsDrawer
          assessmentId={props.assessmentId}
          item={pairsOf}
          onClose={() => setPairsOf(null)}
        />
      ) : null}
    </section>
  );
}
