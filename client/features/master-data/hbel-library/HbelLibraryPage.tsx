import { Button, Card, Drawer, Empty, Flex, List, Space, Table, Tabs, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';
import { ControlledRecordPanel } from '#client/shared/records/ControlledRecordPanel.tsx';
import { StatusTag } from '#client/shared/records/StatusTag.tsx';
import { usePermissions } from '#client/shared/permissions.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { activesDef } from '#core/entities/defs/index.ts';
import { MASTER_DATA_BASE } from '#client/shared/master-data/record-pages.ts';
import {
  hbelKeys,
  listMonographs,
  monographVersions,
  monographWhereUsed,
  readMonograph,
  type HbelMonograph,
} from './hbel-library-api.ts';
import { MonographDerivation } from './MonographDerivation.tsx';
import { MonographDialog } from './MonographDialog.tsx';

/** The path of the library's page below master data. */
export const HBEL_LIBRARY_PATH = 'hbel-library';

/**
 * The plan's HBEL library (issue 32): one monograph per substance, its PDE derived as the EMA
 * HBEL guideline writes it and signed by the toxicologist, shared by every facility of the plan.
 */
export function HbelLibraryPage() {
  const scope = useFacilityScope();
  const permissions = usePermissions();
  const numbers = useNumberFormat();
  const [openId, setOpenId] = useState<number | null>(null);
  const [isCreating, setCreating] = useState(false);
  const list = useQuery({
    queryKey: hbelKeys.list(scope.planId),
    queryFn: ({ signal }) => listMonographs(scope.planId, signal),
  });
  if (list.isError) return <LoadErrorAlert title="Could not load the HBEL library" query={list} />;
  return (
    <Card>
      <Flex justify="space-between" align="center">
        <Typography.Title level={2}>HBEL library</Typography.Title>
        {permissions.can('API', 'Add') ? (
          <Button type="primary" onClick={() => setCreating(true)}>
            New monograph
          </Button>
        ) : null}
      </Flex>
      <Typography.Paragraph type="secondary">
        Health-based exposure limits of the plan, each derived once and signed by a toxicologist,
        used by every facility that links an active to it.
      </Typography.Paragraph>
      <Table<HbelMonograph>
        loading={list.isPending}
        rowKey="id"
        dataSource={list.data?.items ?? []}
        pagination={false}
        onRow={(row) => ({ onClick: () => setOpenId(row.id), style: { cursor: 'pointer' } })}
        columns={[
          { key: 'number', title: 'Number', dataIndex: 'number' },
          { key: 'substance', title: 'Substance', dataIndex: 'substance' },
          {
            key: 'pde',
            title: 'PDE in force',
            render: (_: unknown, row: HbelMonograph) =>
              row.inForce ? numbers.quantityOf(row.inForce.pde) : 'Not approved yet',
          },
          {
            key: 'status',
            title: 'Latest version',
            render: (_: unknown, row: HbelMonograph) => (
              <Space>
                {`Version ${row.versionNumber}`}
                <StatusTag state={row} />
              </Space>
            ),
          },
        ]}
      />
      <Drawer
        open={openId !== null}
        size={720}
        onClose={() => setOpenId(null)}
        title="HBEL monograph"
        destroyOnHidden
      >
        {openId !== null ? <MonographView id={openId} /> : null}
      </Drawer>
      {isCreating ? (
        <MonographDialog
          monograph={null}
          onClose={() => setCreating(false)}
          onSaved={(saved) => setOpenId(saved.id)}
        />
      ) : null}
    </Card>
  );
}

function MonographView({ id }: { id: number }) {
  const scope = useFacilityScope();
  const permissions = usePermissions();
  const queryClient = useQueryClient();
  const [isVersioning, setVersioning] = useState(false);
  const monograph = useQuery({
    queryKey: hbelKeys.detail(scope.planId, id),
    queryFn: ({ signal }) => readMonograph(scope.planId, id, signal),
  });
  if (monograph.isPending) return null;
  if (monograph.isError)
    return <LoadErrorAlert title="Could not load the monograph" query={monograph} />;
  const m = monograph.data;
  return (
    <Flex vertical gap="middle">
      <Typography.Title level={3}>
        {m.number} {m.substance}
      </Typography.Title>
      {m.signingFacilityId === scope.facilityId ? (
        <ControlledRecordPanel
          documentType="HbelMonograph"
          documentId={m.id}
          title={`${m.number} ${m.substance}`}
          state={m}
          canModify={permissions.can('API', 'Add')}
          onSigned={() =>
            void queryClient.invalidateQueries({ queryKey: hbelKeys.all(scope.planId) })
          }
        />
      ) : (
        <Typography.Text type="secondary">Signed in another facility of the plan.</Typography.Text>
      )}
      {permissions.can('API', 'Modify') ? (
        <div>
          <Button onClick={() => setVersioning(true)}>New version</Button>
        </div>
      ) : null}
      <Tabs
        destroyOnHidden
        items={[
          ...(m.inForce
            ? [
                {
                  key: 'in-force',
                  label: `In force (version ${m.inForce.versionNumber})`,
                  children: <MonographDerivation version={m.inForce} />,
                },
              ]
            : []),
          ...(m.draftVersionNumber !== null || !m.inForce
            ? [
                {
                  key: 'draft',
                  label: `Version ${m.draft.versionNumber} in progress`,
                  children: <MonographDerivation version={m.draft} />,
                },
              ]
            : []),
          { key: 'versions', label: 'Versions', children: <Versions id={id} /> },
          { key: 'where-used', label: 'Where used', children: <WhereUsed id={id} /> },
        ]}
      />
      {isVersioning ? (
        <MonographDialog
          monograph={m}
          onClose={() => setVersioning(false)}
          onSaved={() => undefined}
        />
      ) : null}
    </Flex>
  );
}

function Versions({ id }: { id: number }) {
  const scope = useFacilityScope();
  const numbers = useNumberFormat();
  const versions = useQuery({
    queryKey: hbelKeys.versions(scope.planId, id),
    queryFn: ({ signal }) => monographVersions(scope.planId, id, signal),
  });
  if (versions.isError)
    return <LoadErrorAlert title="Could not load the versions" query={versions} />;
  return (
    <List
      loading={versions.isPending}
      dataSource={versions.data?.versions ?? []}
      renderItem={(v) => (
        <List.Item>
          <Space>
            {`Version ${v.versionNumber}`}
            <StatusTag state={v} />
            {`PDE ${numbers.quantityOf(v.pde) || '—'}`}
          </Space>
        </List.Item>
      )}
    />
  );
}

function WhereUsed({ id }: { id: number }) {
  const scope = useFacilityScope();
  const numbers = useNumberFormat();
  const used = useQuery({
    queryKey: hbelKeys.whereUsed(scope.planId, id),
    queryFn: ({ signal }) => monographWhereUsed(scope.planId, id, signal),
  });
  if (used.isError) return <LoadErrorAlert title="Could not load where it is used" query={used} />;
  if (used.data?.usedBy.length === 0)
    return <Empty description="No active of the plan is linked to this monograph" />;
  return (
    <List
      loading={used.isPending}
      dataSource={used.data?.usedBy ?? []}
      renderItem={(u) => (
        <List.Item>
          {u.facilityId === scope.facilityId ? (
            <Link to={`${MASTER_DATA_BASE}/${activesDef.path}/${u.activeId}`}>{u.activeName}</Link>
          ) : (
            u.activeName
          )}
          {` · ${u.facilityName} · version ${u.versionNumber}`}
          {u.override ? ` · site override ${numbers.quantityOf(u.override)}` : ''}
        </List.Item>
      )}
    />
  );
}
