// Bundles the server (and the core it imports) into ES modules; packages stay in node_modules.
// What main.ts imports on demand (the HTTP app) is a chunk of its own, loaded while the embedded
// database opens. The database's worker is plain JavaScript and goes beside them as it is, where
// pglite-db.ts looks for it (next to the module that starts it).
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/server', { recursive: true, force: true });
await build({
  // The operations a site runs on a production install, without dev dependencies
  // (scripts/operation.mjs): dist/server/cli/<name>.js.
  entryPoints: [
    'server/main.ts',
    'server/cli/backup.ts',
    'server/cli/restore.ts',
    'server/cli/migrate-to-server.ts',
  ],
  outdir: 'dist/server',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
mkdirSync('dist/server', { recursive: true });
copyFileSync('server/db/pglite-worker.mjs', 'dist/server/pglite-worker.mjs');
