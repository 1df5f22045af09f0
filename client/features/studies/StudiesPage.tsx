import { PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Select, Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  STUDY_OUTCOMES,
  type TStudy,
  type TStudyOutcome,
} from '#core/schemas/verification.schemas.ts';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';
import { serverPaging } from '#client/shared/paging.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { StatusTag } from '#client/shared/records/StatusTag.tsx';
import { NewStudyModal } from '#client/shared/studies/NewStudyModal.tsx';
import { useStudies, type StudyListQuery } from '#client/shared/studies/studies-api.ts';
import { passesText, studyRoute } from '#client/shared/studies/study-format.ts';
import { StudyOutcomeTag } from '#client/shared/studies/StudyOutcomeTag.tsx';

type Query = StudyListQuery;

/** Cleaning validation studies: each follows an Approved protocol, run by run, to its outcome. */
export function StudiesPage() {
  const navigate = useNavigate();
  const permissions = usePermissions();
  // The filters are in the URL (?outcome=Failed, ?overdue=true), so a dashboard bar can open them.
  const [params, setParams] = useSearchParams();
  const [query, setQuery] = useState<Query>(() => {
    const outcome = STUDY_OUTCOMES.find((o) => o === params.get('outcome'));
    return {
      pageNumber: 1,
      pageLimit: 10,
      ...(outcome ? { outcome } : {}),
      ...(params.get('overdue') === 'true' ? { overdue: true } : {}),
    };
  });
  const [creating, setCreating] = useState(false);
  const list = useStudies(query);
  const canAdd = permissions.can('QualificationTask', 'Add');

  const columns: TableProps<TStudy>['columns'] = [
    {
      key: 'number',
      title: 'Number',
      fixed: 'left',
      render: (_, study) => <Link to={studyRoute(study.id)}>{study.number}</Link>,
    },
    { key: 'title', dataIndex: 'title', title: 'Title' },
    { key: 'studyType', dataIndex: 'studyType', title: 'Study type' },
    {
      key: 'protocol',
      title: 'Protocol',
      render: (_, study) => `${study.protocolName} v${study.protocolVersionNumber}`,
    },
    {
      key: 'outcome',
      title: 'Outcome',
      render: (_, study) => <StudyOutcomeTag outcome={study.outcome} />,
    },
    { key: 'passes', title: 'Consecutive passes', render: (_, study) => passesText(study) },
    { key: 'runCount', dataIndex: 'runCount', title: 'Runs' },
    {
      key: 'status',
      title: 'Record status',
      render: (_, study) => <StatusTag state={study.controlled} />,
    },
  ];

  const emptyText = query.overdue ? (
    <Empty description="No study is overdue for its periodic verification" />
  ) : query.outcome ? (
    <Empty description={`No studies are ${query.outcome}`} />
  ) : (
    <Empty description="No studies yet. A study follows an Approved protocol through its runs until enough consecutive runs pass.">
      {canAdd ? (
        <Button type="primary" onClick={() => setCreating(true)}>
          New study
        </Button>
      ) : null}
    </Empty>
  );

  return (
    <section aria-label="Studies">
      <Flex justify="space-between" align="start" wrap style={{ marginBottom: 16 }}>
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            Studies
          </Typography.Title>
          <Typography.Text type="secondary">
            Cleaning validation and verification studies: the protocol each follows, its runs, and
            whether the required consecutive runs passed.
          </Typography.Text>
        </div>
        {canAdd ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            New study
          </Button>
        ) : null}
      </Flex>
      <Select<TStudyOutcome | undefined>
        aria-label="Outcome"
        placeholder="Every outcome"
        allowClear
        style={{ width: 240, marginBottom: 16 }}
        value={query.outcome}
        options={STUDY_OUTCOMES.map((outcome) => ({ value: outcome, label: outcome }))}
        onChange={(outcome) => {
          setQuery(({ overdue: _overdue, ...current }) => ({ ...current, outcome, pageNumber: 1 }));
          setParams(outcome ? { outcome } : {}, { replace: true });
        }}
      />
      {query.overdue ? (
        <Tag
          closable
          style={{ marginInlineStart: 8 }}
          onClose={() => {
            setQuery(({ overdue: _overdue, ...current }) => ({ ...current, pageNumber: 1 }));
            setParams({}, { replace: true });
          }}
        >
          Overdue for periodic verification
        </Tag>
      ) : null}
      {list.isError ? (
        <LoadErrorAlert
          title="Could not load the studies"
          query={list}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <Table<TStudy>
        aria-label="Studies"
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.data ?? []}
        loading={list.isFetching}
        locale={{ emptyText: list.isPending ? ' ' : emptyText }}
        pagination={serverPaging(
          query,
          list.data?.total ?? 0,
          { one: 'study', many: 'studies' },
          (pageNumber, pageLimit) => setQuery((current) => ({ ...current, pageNumber, pageLimit })),
        )}
        scroll={{ x: 'max-content' }}
      />
      {creating ? (
        <NewStudyModal
          onCreated={(study) => void navigate(studyRoute(study.id))}
          onClose={() => setCreating(false)}
        />
      ) : null}
    </section>
  );
}
