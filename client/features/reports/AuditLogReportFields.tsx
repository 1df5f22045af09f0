import { Form, Input, Select } from 'antd';
import { useAuditFilterOptions, useAuditLogUsers } from '../audit-log/audit-log-api.ts';
import type { GenerateReportBody } from './reports-api.ts';

/** The audit-log report's parameters: the filters of the audit log screen, unset ones unsent. */
export interface AuditLogReportValues {
  domains?: string[];
  actions?: string[];
  userIds?: number[];
  startDate?: string;
  endDate?: string;
}

const options = (values: string[] | undefined) =>
  (values ?? []).map((v) => ({ value: v, label: v }));

export function auditLogReportBody(values: AuditLogReportValues): GenerateReportBody {
  const list = <T,>(v: T[] | undefined) => (v && v.length > 0 ? v : undefined);
  return {
    kind: 'audit-log',
    ...(list(values.domains) ? { domains: values.domains } : {}),
    ...(list(values.actions) ? { actions: values.actions } : {}),
    ...(list(values.userIds) ? { userIds: values.userIds } : {}),
    ...(values.startDate ? { startDate: values.startDate } : {}),
    ...(values.endDate ? { endDate: values.endDate } : {}),
  };
}

export function AuditLogReportFields() {
  const filterOptions = useAuditFilterOptions();
  const users = useAuditLogUsers();
  return (
    <>
      <Form.Item label="Domains" name="domains" extra="Leave a filter empty to take every row.">
        <Select
          mode="multiple"
          allowClear
          options={options(filterOptions.data?.domains)}
          aria-label="Domains"
        />
      </Form.Item>
      <Form.Item label="Actions" name="actions">
        <Select
          mode="multiple"
          allowClear
          options={options(filterOptions.data?.actions)}
          aria-label="Actions"
        />
      </Form.Item>
      <Form.Item label="Users" name="userIds">
        <Select
          mode="multiple"
          allowClear
          optionFilterProp="label"
          options={(users.data ?? []).map((u) => ({
            value: u.id,
            label: `${u.firstName} ${u.lastName} (${u.username})`,
          }))}
          aria-label="Users"
        />
      </Form.Item>
      <Form.Item label="From" name="startDate">
        <Input type="date" aria-label="From" />
      </Form.Item>
      <Form.Item label="To" name="endDate">
        <Input type="date" aria-label="To" />
      </Form.Item>
    </>
  );
}
