import { Alert, Button, Form, Select, Table } from 'antd';
import { useState } from 'react';
import type { TDefaultUnit } from '#core/schemas/settings.schemas.ts';
import { unitLabel } from '#core/units/format-number.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { showSaved } from './save-feedback.ts';
import { useDefaultUnits, useUpdateDefaultUnit } from '#client/shared/settings/settings-api.ts';

interface UnitForm {
  unit: string;
  reason: string;
}

export function DefaultUnitsTable({ canEdit }: { canEdit: boolean }) {
  const units = useDefaultUnits();
  const [editing, setEditing] = useState<TDefaultUnit | null>(null);

  if (units.isError) return <Alert type="error" title={units.error.message} />;

  return (
    <>
      <Table<TDefaultUnit>
        rowKey="id"
        size="small"
        loading={units.isPending}
        dataSource={units.data ?? []}
        pagination={false}
        columns={[
          // The measure's key (shortName) is the API's, not a word for people (issue 30).
          { title: 'Measure', dataIndex: 'name' },
          { title: 'Default unit', render: (_, row) => unitLabel(row.unit) },
          {
            title: 'Allowed units',
            render: (_, row) => row.allowedUnits.map(unitLabel).join(', '),
          },
          ...(canEdit
            ? [
                {
                  title: '',
                  key: 'edit',
                  render: (_: unknown, row: TDefaultUnit) => (
                    <Button
                      size="small"
                      disabled={row.allowedUnits.length < 2}
                      onClick={() => setEditing(row)}
                      aria-label={`Change ${row.name}`}
                    >
                      Change
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing ? <EditUnitModal unit={editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}

function EditUnitModal({ unit, onClose }: { unit: TDefaultUnit; onClose: () => void }) {
  const update = useUpdateDefaultUnit();

  return (
    <ReasonDialog<UnitForm>
      title={`Default unit: ${unit.name}`}
      okText="Save"
      initialValues={{ unit: unit.unit }}
      onSubmit={async (values) => {
        await update.mutateAsync({ id: unit.id, ...values });
        showSaved(`Default unit of ${unit.name}`);
      }}
      onClose={onClose}
    >
      <Form.Item label="Unit" name="unit" rules={[{ required: true, message: 'Choose a unit' }]}>
        <Select
          options={unit.allowedUnits.map((u) => ({ value: u, label: unitLabel(u) }))}
          aria-label="Unit"
        />
      </Form.Item>
    </ReasonDialog>
  );
}
