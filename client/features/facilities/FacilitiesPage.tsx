import { Button, Form, Input, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { PRODUCT_TYPES, TIERS } from '#core/facilities/facility-features.ts';
import type { TFacilityRecord } from '#core/schemas/facilities.schemas.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { useSession } from '#client/session/use-session.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { AdminListHeader, AdminSearch, useAdminList } from '#client/shared/users/AdminList.tsx';
import {
  useFacilityGroups,
  useFacilityRecords,
  useSaveFacility,
  type FacilityValues,
} from './facilities-api.ts';

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

function FacilityFormModal({
  facility,
  onClose,
}: {
  facility: TFacilityRecord | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<FacilityValues & { reason?: string }>();
  const save = useSaveFacility();
  const groups = useFacilityGroups();
  return (
    <ReasonDialog
      form={form}
      askReason={facility !== null}
      title={facility ? 'Edit Facility' : 'Add Facility'}
      okText={facility ? 'Save' : 'Create Facility'}
      initialValues={facility ?? { productType: 'product', tier: 'full' }}
      onSubmit={(values) =>
        save.mutateAsync(
          facility ? { ...values, id: facility.id, version: facility.version } : values,
        )
      }
      onClose={onClose}
    >
      <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true }]}>
        <Input />
      </Form.Item>
      <Form.Item label="Product type" name="productType" rules={[{ required: true }]}>
        <Select options={options(PRODUCT_TYPES)} />
      </Form.Item>
      <Form.Item label="Tier" name="tier" rules={[{ required: true }]}>
        <Select options={options(TIERS)} />
      </Form.Item>
      <Form.Item label="Facility group" name="facilityGroupId" rules={[{ required: true }]}>
        <Select
          loading={groups.isPending}
          options={(groups.data?.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
        />
      </Form.Item>
    </ReasonDialog>
  );
}

/** The facilities of the plan: product type and tier decide each one's features. */
export function FacilitiesPage() {
  const list = useAdminList();
  const facilities = useFacilityRecords(list.search, list.page.pageNumber, list.page.pageLimit);
  const permissions = usePermissions();
  const { currentFacilityId } = useSession();
  const [editing, setEditing] = useState<TFacilityRecord | null | undefined>(undefined);
  const mayModify = permissions.can('Facility', 'Modify');
  return (
    <section aria-label="Facilities">
      <AdminListHeader
        title="Facilities"
        addText="Add Facility"
        mayAdd={permissions.canInPlan('Facility', 'Add')}
        onAdd={() => setEditing(null)}
      />
      <AdminSearch label="Search facilities" onSearch={list.setSearch} />
      <Table<TFacilityRecord>
        rowKey="id"
        dataSource={facilities.data?.data ?? []}
        loading={facilities.isFetching}
        columns={[
          { title: 'Facility', dataIndex: 'name' },
          { title: 'Product type', dataIndex: 'productType' },
          { title: 'Tier', dataIndex: 'tier' },
          { title: 'Group', dataIndex: 'facilityGroupName' },
          {
            title: 'Licence',
            dataIndex: 'licenseState',
            render: (state: string) => (
              <Tag color={state === 'genuine' ? 'green' : 'orange'}>{state}</Tag>
            ),
          },
          {
            title: 'Actions',
            key: 'actions',
            render: (_, f) => (
              <Space>
                {mayModify ? <Button onClick={() => setEditing(f)}>Edit</Button> : null}
                {f.id === currentFacilityId ? (
                  <Link to="/settings?tab=additional-properties">Additional properties</Link>
                ) : null}
              </Space>
            ),
          },
        ]}
        pagination={list.pagination(facilities.data?.total)}
      />
      {editing !== undefined && (
        <FacilityFormModal facility={editing} onClose={() => setEditing(undefined)} />
      )}
    </section>
  );
}
