import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { customReportsDef } from '#core/entities/defs/custom-reports.def.ts';
import { filterOperatorLabel } from '#core/labels/enum-labels.ts';
import { reportColumnHeader, reportOptionLabel } from '#core/labels/report-cell.ts';
import type { ReportFilter, TReportSourceInfo } from '#core/schemas/custom-reports.schemas.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { createEntity, updateEntity } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { customReportKeys, type CustomReport } from './custom-reports-api.ts';

interface BuilderValues {
  name: string;
  source: string;
  /** The chosen columns in order; sent as [{ key }]. */
  columnKeys: string[];
  filters?: ReportFilter[];
  description?: string;
  reason?: string;
}

/** One filter row: a column of the source, an operator that column takes, and a value. */
function FilterRow({
  name,
  source,
  onRemove,
}: {
  name: number;
  source: TReportSourceInfo | undefined;
  onRemove: () => void;
}) {
  const form = Form.useFormInstance<BuilderValues>();
  const columnKey = Form.useWatch(['filters', name, 'column'], form);
  const column = source?.columns.find((c) => c.key === columnKey);
  return (
    <Space align="start" wrap>
      <Form.Item name={[name, 'column']} rules={[{ required: true, message: 'Choose a column' }]}>
        <Select
          aria-label={`Filter ${name + 1} column`}
          style={{ width: 200 }}
          placeholder="Column"
          showSearch={{ optionFilterProp: 'label' }}
          options={(source?.columns ?? [])
            .filter((c) => c.operators.length > 0)
            .map((c) => ({ value: c.key, label: reportColumnHeader(c) }))}
          onChange={() => form.setFieldValue(['filters', name, 'operator'], undefined)}
        />
      </Form.Item>
      <Form.Item name={[name, 'operator']} rules={[{ required: true, message: 'Choose one' }]}>
        <Select
          aria-label={`Filter ${name + 1} operator`}
          style={{ width: 190 }}
          placeholder="Operator"
          options={(column?.operators ?? []).map((o) => ({
            value: o,
            label: filterOperatorLabel(o),
          }))}
        />
      </Form.Item>
      <Form.Item name={[name, 'value']} rules={[{ required: true, message: 'Enter a value' }]}>
        {column?.options || column?.type === 'boolean' ? (
          <Select
            aria-label={`Filter ${name + 1} value`}
            style={{ width: 180 }}
            // Codes in words ('swab' → 'Swab', true → Yes); the value sent is the code.
            options={(column.options ?? ['true', 'false']).map((o) => ({
              value: o,
              label: reportOptionLabel(column, o),
            }))}
          />
        ) : (
          <Input
            aria-label={`Filter ${name + 1} value`}
            style={{ width: 180 }}
            placeholder={column?.type === 'date' ? 'YYYY-MM-DD' : 'Value'}
          />
        )}
      </Form.Item>
      <Button
        aria-label={`Remove filter ${name + 1}`}
        icon={<DeleteOutlined />}
        onClick={onRemove}
      />
    </Space>
  );
}

/** Builds a new custom report or edits a saved one (an edit takes a reason, spec §5). */
export function ReportBuilder({
  sources,
  report,
  onClose,
  onSaved,
}: {
  sources: TReportSourceInfo[];
  report: CustomReport | null;
  onClose: () => void;
  onSaved: (saved: CustomReport) => void;
}) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<BuilderValues>();
  const sourceKey = Form.useWatch('source', form) ?? report?.source;
  const source = sources.find((s) => s.key === sourceKey);
  return (
    <ReasonDialog<BuilderValues>
      form={form}
      name="custom-report"
      title={report ? `Edit ${report.name}` : 'New custom report'}
      okText="Save"
      width={760}
      askReason={report !== null}
      initialValues={
        report
          ? {
              name: report.name,
              source: report.source,
              columnKeys: report.columns.map((c) => c.key),
              filters: report.filters ?? [],
              description: report.description ?? '',
            }
          : { filters: [] }
      }
      onSubmit={async (values) => {
        const body = {
          name: values.name,
          source: values.source,
          columns: values.columnKeys.map((key) => ({ key })),
          filters: values.filters ?? [],
          description: values.description || null,
        };
        const saved = report
          ? await updateEntity(scope, customReportsDef, report.id, {
              changes: body,
              reason: values.reason ?? '',
              version: report.version,
            })
          : await createEntity(scope, customReportsDef, body);
        await queryClient.invalidateQueries({ queryKey: customReportKeys.all(scope.facilityId) });
        onSaved(saved as CustomReport);
      }}
      onClose={onClose}
    >
      <Form.Item label="Name" name="name" rules={[{ required: true, message: 'Name is required' }]}>
        <Input aria-label="Name" maxLength={200} />
      </Form.Item>
      <Form.Item
        label="Source"
        name="source"
        rules={[{ required: true, message: 'Choose a source' }]}
      >
        <Select
          aria-label="Source"
          options={sources.map((s) => ({
            value: s.key,
            label: s.allowed ? s.label : `${s.label} (you may not read its data)`,
          }))}
          onChange={() => form.setFieldsValue({ columnKeys: [], filters: [] })}
        />
      </Form.Item>
      {source ? (
        <Typography.Paragraph type="secondary">{source.description}</Typography.Paragraph>
      ) : null}
      <Form.Item
        label="Columns"
        name="columnKeys"
        extra="In the order the report shows them."
        rules={[{ required: true, message: 'Choose at least one column' }]}
      >
        <Select
          aria-label="Columns"
          mode="multiple"
          showSearch={{ optionFilterProp: 'label' }}
          options={(source?.columns ?? []).map((c) => ({
            value: c.key,
            label: reportColumnHeader(c),
          }))}
        />
      </Form.Item>
      <Typography.Text strong>Filters</Typography.Text>
      <Form.List name="filters">
        {(fields, { add, remove }) => (
          <div style={{ marginTop: 8 }}>
            {fields.map((field) => (
              <FilterRow
                key={field.key}
                name={field.name}
                source={source}
                onRemove={() => remove(field.name)}
              />
            ))}
            <Button icon={<PlusOutlined />} onClick={() => add()} disabled={!source}>
              Add filter
            </Button>
          </div>
        )}
      </Form.List>
      <Form.Item label="Description" name="description" style={{ marginTop: 16 }}>
        <Input.TextArea aria-label="Description" rows={2} />
      </Form.Item>
    </ReasonDialog>
  );
}
