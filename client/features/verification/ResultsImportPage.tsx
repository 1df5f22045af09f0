import {
  Alert,
  Button,
  Card,
  Select,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { resultsImportMappingsDef as def } from '#core/entities/defs/results-import-mappings.def.ts';
import type { TImportRow } from '#core/schemas/results-import.schemas.ts';
import { isApiError } from '#client/api/api-error.ts';
import { EntityFormDrawer } from '#client/shared/master-data/EntityFormDrawer.tsx';
import { ImportProblemsTable } from '#client/shared/master-data/ImportProblemsTable.tsx';
import { problemsOf } from '#client/shared/master-data/workbook-problems.ts';
import type { EntityRecord } from '#client/shared/master-data/entity-api.ts';
import { useArchiveEntity, useEntityList } from '#client/shared/master-data/entity-queries.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { useReasonAction } from '#client/shared/reason/use-reason-action.tsx';
import { JudgementTag } from './JudgementTag.tsx';
import { useResultsImport } from './results-import-api.ts';

const STATUS_LABELS: Record<TImportRow['status'], { text: string; colour: string }> = {
  new: { text: 'To enter', colour: 'blue' },
  unchanged: { text: 'Already entered', colour: 'default' },
  problem: { text: 'Problem', colour: 'red' },
};

const reported = (r: TImportRow) =>
  r.rawValue === null
    ? ''
    : `${r.censoring && r.censoring !== '=' ? `${r.censoring} ` : ''}${r.rawValue} ${r.unit ?? ''}`;

const ROW_COLUMNS = [
  { title: 'Row', dataIndex: 'row', key: 'row', width: 70 },
  {
    title: 'Run',
    key: 'run',
    render: (_: unknown, r: TImportRow) =>
      r.runId ? <Link to={`/runs/${r.runId}`}>{r.runName}</Link> : null,
  },
  { title: 'Location', dataIndex: 'location', key: 'location' },
  { title: 'Sample number', dataIndex: 'sampleNumber', key: 'sampleNumber' },
  { title: 'Method', dataIndex: 'method', key: 'method' },
  { title: 'Reported', key: 'reported', render: (_: unknown, r: TImportRow) => reported(r) },
  {
    title: 'Judgement',
    key: 'judgement',
    render: (_: unknown, r: TImportRow) =>
      r.judgement ? <JudgementTag judgement={r.judgement} /> : null,
  },
  {
    title: 'Status',
    key: 'status',
    render: (_: unknown, r: TImportRow) => (
      <Tag color={STATUS_LABELS[r.status].colour}>{STATUS_LABELS[r.status].text}</Tag>
    ),
  },
];

/** The laboratory's mapping: chosen, created, edited or archived (versioned and audited). */
function MappingPicker({
  mapping,
  onChange,
}: {
  mapping: EntityRecord | null;
  onChange: (mapping: EntityRecord | null) => void;
}) {
  const { can } = usePermissions();
  const list = useEntityList(def, { pageNumber: 1, pageLimit: 100, sortBy: 'name' });
  const [editing, setEditing] = useState<EntityRecord | 'new' | null>(null);
  const archive = useArchiveEntity(def);
  const reasonAction = useReasonAction();
  const mappings = list.data?.data ?? [];
  return (
    <Space wrap>
      <Select
        aria-label="Column mapping"
        placeholder="Choose the laboratory's mapping"
        style={{ minWidth: 320 }}
        loading={list.isLoading}
        value={mapping?.id}
        options={mappings.map((m) => ({
          value: m.id,
          label: `${String(m.name)} (${String(m.laboratory)})`,
        }))}
        onChange={(id: number) => onChange(mappings.find((m) => m.id === id) ?? null)}
      />
      {can(def.resource, 'Add') ? (
        <Button onClick={() => setEditing('new')}>New mapping</Button>
      ) : null}
      {mapping && can(def.resource, 'Modify') ? (
        <Button onClick={() => setEditing(mapping)}>Edit mapping</Button>
      ) : null}
      {mapping && can(def.resource, 'Delete') ? (
        <Button
          danger
          onClick={() =>
            reasonAction.ask({
              title: `Archive the mapping ${String(mapping.name)}`,
              okText: 'Archive',
              danger: true,
              run: async (reason) => {
                await archive.mutateAsync({ record: mapping, reason });
                onChange(null);
              },
            })
          }
        >
          Archive mapping
        </Button>
      ) : null}
      {editing ? (
        <EntityFormDrawer
          def={def}
          record={editing === 'new' ? null : editing}
          onClose={() => {
            setEditing(null);
            void list.refetch().then((fresh) => {
              const id = editing === 'new' ? undefined : editing.id;
              if (id) onChange(fresh.data?.data.find((m) => m.id === id) ?? null);
            });
          }}
        />
      ) : null}
      {reasonAction.modal}
    </Space>
  );
}

/**
 * /verification/results-import — a laboratory's file of results (issue 33): read with its
 * mapping, previewed row by row with the judgement the run screen gives, then entered at once.
 */
export function ResultsImportPage() {
  const { can } = usePermissions();
  const [mapping, setMapping] = useState<EntityRecord | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const preview = useResultsImport();
  const commit = useResultsImport();
  const canImport = can('QualificationTask', 'Modify');

  const check = (chosen: File) => {
    setFile(chosen);
    commit.reset();
    if (mapping) preview.mutate({ file: chosen, mappingId: mapping.id, dryRun: true });
  };
  const answer = preview.data;
  const refusedProblems =
    commit.isError && isApiError(commit.error) ? problemsOf(commit.error.otherErrors) : [];

  return (
    <Card>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        Import results from the laboratory
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        A CSV or Excel file of sample results from the laboratory&apos;s system, read with its saved
        column mapping. Every row is checked and judged as a result typed on the run screen; the
        results are entered together, or not at all. Rows already entered are left as they are.
      </Typography.Paragraph>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <MappingPicker
          mapping={mapping}
          onChange={(next) => {
            setMapping(next);
            preview.reset();
            commit.reset();
          }}
        />
        {canImport ? (
          <Upload
            accept=".csv,.xlsx"
            maxCount={1}
            showUploadList={false}
            disabled={!mapping || preview.isPending}
            // The file is sent by the import call itself, as the raw body.
            beforeUpload={(chosen) => {
              check(chosen);
              return false;
            }}
          >
            <Button disabled={!mapping} loading={preview.isPending}>
              Choose file
            </Button>
          </Upload>
        ) : (
          <Alert type="info" showIcon title="Importing results needs the right to enter them." />
        )}
        {preview.isError ? (
          <Alert
            type="error"
            showIcon
            title="The file could not be read"
            description={preview.error.message}
          />
        ) : null}
        {answer && file ? (
          <div role="region" aria-label="Preview">
            <Space size="large" style={{ marginBottom: 16 }}>
              <Statistic title="Rows" value={answer.counts.rows} />
              <Statistic title="To enter" value={answer.counts.new} />
              <Statistic title="Already entered" value={answer.counts.unchanged} />
              <Statistic title="Problems" value={answer.counts.problems} />
            </Space>
            {answer.problems.length > 0 ? (
              <>
                <Alert
                  type="warning"
                  showIcon
                  title={`${file.name} has ${answer.problems.length} problem${answer.problems.length === 1 ? '' : 's'}: correct the file and choose it again`}
                  style={{ marginBottom: 8 }}
                />
                <ImportProblemsTable problems={answer.problems} />
              </>
            ) : null}
            <Table<TImportRow>
              size="small"
              aria-label="Results in the file"
              rowKey="row"
              columns={ROW_COLUMNS}
              dataSource={answer.rows}
              pagination={
                answer.rows.length > 50 ? { pageSize: 50, showSizeChanger: false } : false
              }
            />
            {commit.isSuccess ? (
              <Alert
                type="success"
                showIcon
                title={`Imported ${file.name}: ${commit.data.counts.new} results entered, ${commit.data.counts.unchanged} already entered`}
              />
            ) : (
              <Button
                type="primary"
                disabled={answer.problems.length > 0 || answer.counts.new === 0}
                loading={commit.isPending}
                onClick={() =>
                  mapping && commit.mutate({ file, mappingId: mapping.id, dryRun: false })
                }
              >
                Import {answer.counts.new} result{answer.counts.new === 1 ? '' : 's'}
              </Button>
            )}
            {commit.isError ? (
              <>
                <Alert
                  type="error"
                  showIcon
                  title="Nothing was imported"
                  description={commit.error.message}
                  style={{ marginTop: 16 }}
                />
                {refusedProblems.length > 0 ? (
                  <ImportProblemsTable problems={refusedProblems} />
                ) : null}
              </>
            ) : null}
          </div>
        ) : null}
      </Space>
    </Card>
  );
}
