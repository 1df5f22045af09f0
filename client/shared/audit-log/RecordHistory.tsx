import { useState } from 'react';
import type { EntityDef } from '#core/entities/entity.ts';
import { lowerLabel } from '#core/entities/labels.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { AuditRowsTable, FIRST_AUDIT_PAGE } from './AuditRowsTable.tsx';
import { useRecordHistory } from './record-history-api.ts';

/**
 * A record's History tab: who changed what, when and why, newest first, read as the audit log
 * reads (one table for both). Hosted by every screen that shows a record.
 */
export function RecordHistory({ def, id }: { def: EntityDef; id: number }) {
  const scope = useFacilityScope();
  const [page, setPage] = useState(FIRST_AUDIT_PAGE);
  const history = useRecordHistory(scope, def, id, page);
  return (
    <AuditRowsTable
      rows={history}
      page={page}
      onPage={setPage}
      label={`History of the ${lowerLabel(def.label)}`}
      ownDomain={def.domain}
      emptyText={`Nothing has been recorded for this ${lowerLabel(def.label)} yet`}
    />
  );
}
