/*
 * Server test files that never reach a PostgreSQL server, whatever DATABASE_URL says: they test
 * the embedded database's own folder, lease and worker (their servers are started without the
 * suite's database URLs), or code that reads no database at all (the limits CLI, PDF, xlsx and
 * CSV writers and readers). On a run on a server they run once, in the embedded pass
 * (vitest.config.ts, 'server-embedded'). embedded-only.test.ts checks that none of them opens a
 * database through the suite's ways to the server.
 */
export const EMBEDDED_ONLY_FILES = [
  // The embedded database's folder, lease and worker thread.
  'server/db/data-dir-lock-race.test.ts',
  'server/db/data-dir-lock.test.ts',
  'server/db/data-dir-takeover.test.ts',
  'server/db/deferred-db.test.ts',
  'server/db/pglite-db.test.ts',
  'server/records/controlled-migration.test.ts',
  // The process's start, with the database URLs emptied.
  'server/main.test.ts',
  // No database.
  'server/test/embedded-only.test.ts',
  'server/cli/limits.test.ts',
  'server/db/audit-diff.test.ts',
  'server/http/disk-full.test.ts',
  'server/http/request-log.test.ts',
  'server/http/response-serializer.test.ts',
  'server/modules/change-assessments/impact-exports.test.ts',
  'server/modules/entities/entity-verbs.test.ts',
  'server/modules/limits/computable-input.test.ts',
  'server/modules/limits/mac-columns.test.ts',
  'server/modules/limits/mac-matrix-xlsx.test.ts',
  'server/modules/master/workbook-read.test.ts',
  'server/modules/verification/results-import/results-file.test.ts',
  'server/util/pdf/render-pdf.test.ts',
] as const;

/**
 * On a run on a PostgreSQL server, the files that run on the embedded database as well (README,
 * "Which tests run on which database"): its driver and the record mechanism's own tests, and the
 * files that test something the two databases do differently (they ask which one they run on).
 */
export const EMBEDDED_DRIVER_FILES = [
  'server/db/**/*.test.ts',
  'server/records/**/*.test.ts',
  // The two pools of used databases (pglite-pool.ts, pg-pool.ts).
  'server/test/db-pools.test.ts',
  'server/cli/backup-cli.test.ts',
  'server/entities/list-pages-fresh.test.ts',
  'server/entities/list-totals.test.ts',
  'server/http/idempotency.test.ts',
  'server/http/metrics.test.ts',
  'server/modules/audit/audit-roles.test.ts',
  'server/modules/audit/audit.test.ts',
  'server/modules/health/health.test.ts',
  'server/modules/productions/equipment-trains-controlled-migration.test.ts',
] as const;
