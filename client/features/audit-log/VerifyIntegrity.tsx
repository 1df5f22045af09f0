import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, Button } from 'antd';
import { useAuditFilterOptions } from '#client/shared/audit-log/audit-log-api.ts';
import type { useVerifyAuditTrail } from './audit-verify-api.ts';
import { verifyOutcome } from './audit-verify-text.ts';

/** The button that recomputes the audit trail's hash chains. */
export function VerifyIntegrityButton({
  verify,
}: {
  verify: ReturnType<typeof useVerifyAuditTrail>;
}) {
  return (
    <Button
      icon={<SafetyCertificateOutlined />}
      loading={verify.isPending}
      onClick={() => verify.mutate()}
    >
      Verify integrity
    </Button>
  );
}

/** What the last verification found: intact, or where the trail breaks. */
export function VerifyIntegrityResult({
  verify,
}: {
  verify: ReturnType<typeof useVerifyAuditTrail>;
}) {
  const options = useAuditFilterOptions();
  if (verify.isError) {
    return (
      <Alert type="error" showIcon title={verify.error.message} style={{ marginBottom: 16 }} />
    );
  }
  if (!verify.data) return null;
  const facilities = new Map((options.data?.facilities ?? []).map((f) => [f.id, f.name]));
  const outcome = verifyOutcome(verify.data, facilities);
  return (
    <Alert
      role="status"
      type={outcome.intact ? 'success' : 'error'}
      showIcon
      title={outcome.title}
      description={outcome.lines.map((line) => (
        <div key={line}>{line}</div>
      ))}
      style={{ marginBottom: 16 }}
    />
  );
}
