import { Alert, Button } from 'antd';
import type { CSSProperties } from 'react';

/** A read that failed: what could not be loaded, the server's message, and a way to try again. */
export function LoadErrorAlert(props: {
  title: string;
  query: { error: Error | null; refetch: () => unknown };
  style?: CSSProperties;
}) {
  return (
    <Alert
      type="error"
      showIcon
      style={props.style}
      title={props.title}
      description={props.query.error?.message}
      action={<Button onClick={() => void props.query.refetch()}>Try again</Button>}
    />
  );
}
