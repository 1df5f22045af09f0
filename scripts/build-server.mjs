// Bundles the server (and the core it imports) into ES modules; packages stay in node_modules.
// What main.ts imports on demand (the HTTP app) is a chunk of its own, loaded while the embedded
// database opens. The database's worker is plain JavaScript and goes beside them as it is, where
// pglite-db.ts looks for it (next to the module that starts it).
//
// `node scripts/build-server.mjs [OUTDIR [ENTRY…]]`: the test suite builds it once per run into a
// folder of its own, with the modules its child processes run besides (server/test/global-setup.ts):
// a child started through tsx compiled the server again on each start.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const [outdir = 'dist/server', ...extraEntries] = process.argv.slice(2);
rmSync(outdir, { recursive: true, force: true });
await build({
  // The operations a site runs on a production install, without dev dependencies
  // (scripts/operation.mjs): dist/server/cli/<name>.js.
  entryPoints: [
    'server/main.ts',
    'server/cli/backup.ts',
    'server/cli/restore.ts',
    'server/cli/migrate-to-server.ts',
    ...extraEntries,
  ],
  outdir,
  // Paths below it as below server/, whatever the entries: dist/server/cli/<name>.js.
  outbase: 'server',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
mkdirSync(outdir, { recursive: true });
copyFileSync('server/db/pglite-worker.mjs', join(outdir, 'pglite-worker.mjs'));
