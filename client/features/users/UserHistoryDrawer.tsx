import { Drawer } from 'antd';
import { useState } from 'react';
import type { TUser } from '#core/schemas/users.schemas.ts';
import { AuditRowsTable, FIRST_AUDIT_PAGE } from '#client/shared/audit-log/AuditRowsTable.tsx';
import { useUserHistory } from '#client/shared/users/users-api.ts';

/**
 * What happened to an account, newest first: an administrator sees here when its password was
 * set again through a secret key, besides its edits, locks and archiving (issue 28).
 */
export function UserHistoryDrawer({ user, onClose }: { user: TUser; onClose: () => void }) {
  const [page, setPage] = useState(FIRST_AUDIT_PAGE);
  const history = useUserHistory(user.id, page);
  const name = `${user.firstName} ${user.lastName}`;
  return (
    <Drawer open size={720} title={`History of ${name}`} onClose={onClose}>
      <AuditRowsTable
        rows={history}
        page={page}
        onPage={setPage}
        label={`History of ${name}`}
        ownDomain="User"
        emptyText="Nothing has been recorded for this user yet"
      />
    </Drawer>
  );
}
