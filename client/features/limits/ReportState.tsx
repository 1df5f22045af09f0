import { Empty, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';

/** Loading, error and empty states shared by the limits reports. */
export function ReportState({
  query,
  isEmpty,
  what,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: Error | null; refetch: () => unknown };
  isEmpty: boolean;
  what: string;
  /** What to add for the report to fill, and where; products and productions by default. */
  empty?: { text: string; to: string; link: string };
  children: ReactNode;
}) {
  if (query.isPending) return <Skeleton active />;
  if (query.isError) {
    return <LoadErrorAlert title={`Could not load the ${what}`} query={query} />;
  }
  if (isEmpty) {
    return (
      <Empty
        description={
          empty ? (
            empty.text
          ) : (
            <>
              <div>No products yet — add products and productions to see limits.</div>
              <div>
                Limits appear once products with actives share equipment through a production.
              </div>
            </>
          )
        }
      >
        <Link to={empty?.to ?? '/master-data/productions'}>
          {empty?.link ?? 'Go to productions'}
        </Link>
      </Empty>
    );
  }
  return <>{children}</>;
}
