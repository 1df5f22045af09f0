import { Button, Form, Select, Space } from 'antd';
import { auditActionLabel, auditDomainLabel } from '#core/audit/audit-format.ts';
import { FacilityDateInput } from '#client/shared/facility-date-inputs.tsx';
import type { AuditLogFilters } from './audit-log-api.ts';
import { useAuditFilterOptions, useAuditLogUsers } from './audit-log-api.ts';

interface AuditLogFiltersProps {
  onApply: (filters: AuditLogFilters) => void;
}

/** Codes are sent as they are and shown in words (issue 30). */
const options = (values: string[] | undefined, label: (code: string) => string) =>
  (values ?? []).map((v) => ({ value: v, label: label(v) }));

/** The filter fields of the audit log (the screen, and the audit-log report's parameters). */
export function AuditFilterFields({ withFacility = false }: { withFacility?: boolean }) {
  const users = useAuditLogUsers();
  const filterOptions = useAuditFilterOptions();
  return (
    <>
      <Form.Item label="Domains" name="domains">
        <Select
          mode="multiple"
          allowClear
          style={{ minWidth: 180 }}
          showSearch={{ optionFilterProp: 'label' }}
          options={options(filterOptions.data?.domains, auditDomainLabel)}
          aria-label="Domains"
        />
      </Form.Item>
      <Form.Item label="Actions" name="actions">
        <Select
          mode="multiple"
          allowClear
          style={{ minWidth: 180 }}
          showSearch={{ optionFilterProp: 'label' }}
          options={options(filterOptions.data?.actions, auditActionLabel)}
          aria-label="Actions"
        />
      </Form.Item>
      <Form.Item label="Users" name="userIds">
        <Select
          mode="multiple"
          allowClear
          style={{ minWidth: 200 }}
          showSearch={{ optionFilterProp: 'label' }}
          options={(users.data ?? []).map((u) => ({
            value: u.id,
            label: `${u.firstName} ${u.lastName} (${u.username})`,
          }))}
          aria-label="Users"
        />
      </Form.Item>
      {withFacility ? (
        <Form.Item label="Facility" name="facilityId">
          <Select
            allowClear
            style={{ minWidth: 180 }}
            options={(filterOptions.data?.facilities ?? []).map((f) => ({
              value: f.id,
              label: f.name,
            }))}
            aria-label="Facility filter"
          />
        </Form.Item>
      ) : null}
      <Form.Item label="From" name="startDate">
        <FacilityDateInput aria-label="From" />
      </Form.Item>
      <Form.Item label="To" name="endDate">
        <FacilityDateInput aria-label="To" />
      </Form.Item>
    </>
  );
}

export function AuditLogFilterBar({ onApply }: AuditLogFiltersProps) {
  const [form] = Form.useForm<AuditLogFilters>();

  return (
    <Form<AuditLogFilters>
      form={form}
      layout="vertical"
      onFinish={onApply}
      aria-label="Audit log filters"
      className="audit-log-filters"
    >
      <Space wrap align="end">
        <AuditFilterFields withFacility />
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">
              Apply filters
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                onApply({});
              }}
            >
              Clear filters
            </Button>
          </Space>
        </Form.Item>
      </Space>
    </Form>
  );
}
