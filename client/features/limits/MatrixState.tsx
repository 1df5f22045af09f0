import { Empty, Progress, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { TUncomputable } from '#core/schemas/mac-matrix.schemas.ts';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';
import { LeftOutAlert } from '#client/shared/limits/LeftOutAlert.tsx';

interface MatrixStateProps {
  query: { isPending: boolean; isError: boolean; error: Error | null; refetch: () => unknown };
  what: string;
  /** Bytes of the matrix received so far while it loads. */
  receivedBytes?: number | undefined;
  uncomputable: readonly TUncomputable[] | undefined;
  isEmpty: boolean;
  /** Called only once the matrix is there and has pairs. */
  children: () => ReactNode;
}

/** Loading, error, left-out and empty states of a view of the MAC matrix. */
export function MatrixState({
  query,
  what,
  receivedBytes,
  uncomputable,
  isEmpty,
  children,
}: MatrixStateProps) {
  if (query.isPending) {
    return (
      <>
        {receivedBytes ? (
          <div role="status" style={{ marginBottom: 16 }}>
            <Typography.Text>
              Loading limits: {(receivedBytes / 1_048_576).toFixed(1)} MB received
            </Typography.Text>
            <Progress percent={100} status="active" showInfo={false} />
          </div>
        ) : null}
        <Skeleton active />
      </>
    );
  }
  if (query.isError) return <LoadErrorAlert title={`Could not load the ${what}`} query={query} />;
  return (
    <>
      <LeftOutAlert uncomputable={uncomputable ?? []} />
      {isEmpty ? (
        <Empty
          description={
            <>
              <div>No limits yet.</div>
              <div>
                Limits appear once products with actives share equipment through a production.
              </div>
            </>
          }
        >
          <Link to="/master-data/productions">Go to productions</Link>
        </Empty>
      ) : (
        children()
      )}
    </>
  );
}
