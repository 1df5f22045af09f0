// `npm run restore -- FILE`: a backup into an empty DATA_DIR or an empty database (DATABASE_URL),
// keys and anchors included, checked, and recorded as a signed event of the audit trail.
import { describeRestore, fileArgument, restoreInto, runOperation } from './backup-operations.ts';

runOperation('Restore', async (config, args) => {
  const file = fileArgument(args, 'npm run restore -- FILE');
  describeRestore(await restoreInto(config, file), file);
});
