import { validationError } from '#core/errors/errors.ts';
import { protocolsDef } from '#core/entities/defs/index.ts';
import { onBeforeSave } from '#server/entities/archive-hooks.ts';
import './protocol-consistency.ts';

/*
 * A protocol's acceptance criteria come from a limits snapshot of its own facility: one named on
 * create or edit must exist there (snapshots are never archived or changed).
 */
onBeforeSave(protocolsDef.key, 'limits-snapshot', async (q, _def, scope, { changed }) => {
  const id = changed.limitsSnapshotId;
  if (typeof id !== 'number') return;
  const [found] = await q.query(
    'select 1 from limits_snapshots where facility_id = $1 and id = $2',
    [scope.facilityId!, id],
  );
  if (!found)
    throw validationError([
      {
        property: 'limitsSnapshotId',
        constraints: { reference: 'No such limits snapshot in this facility' },
      },
    ]);
});
