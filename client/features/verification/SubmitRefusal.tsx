import { Alert } from 'antd';

/** The server's refusal of a run's Submit, shown where it is resolved. */
export function SubmitRefusal({ message }: { message: string | null }) {
  if (message === null) return null;
  return (
    <Alert
      type="error"
      showIcon
      data-testid="submit-refusal"
      style={{ marginBottom: 8 }}
      title={`The run cannot be submitted: ${message}`}
    />
  );
}
