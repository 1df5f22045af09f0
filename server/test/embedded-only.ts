/*
 * Server test files that never reach a PostgreSQL server, whatever DATABASE_URL says: they test
 * the embedded database's own folder, lease and worker (their servers are started without the
 * suite's database URLs), or code that reads no database at all (the limits CLI, PDF, xlsx and
 * CSV writers and readers). CI's second pass, on a PostgreSQL server, leaves them out: they ran
 * the same in the first pass, and ran again there they were a quarter of its time (about 330 s
 * of 1,419 s of files, measured). embedded-only.test.ts checks that none of them opens a
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

/** Set by CI's pass on a PostgreSQL server (.ci/run): the files above are left out of it. */
export const SERVER_PASS_VARIABLE = 'CI_SERVER_DATABASE_PASS';
