// The two-role setup on a PostgreSQL server, for trying it by hand:
//   eval "$(node scripts/ci-pg-roles.mjs postgres://postgres@127.0.0.1:5432 carryover_ci)"
// As the superuser of the first URL it creates (or resets) an owner role and an app role
// (scripts/pg-test-roles.mjs) and the database, and prints the suite's URLs as shell exports;
// nothing else goes to stdout. `npm test` does the same by itself (scripts/test.mjs).
import { createTestRoles } from './pg-test-roles.mjs';

const [superUrl, database = 'carryover_ci'] = process.argv.slice(2);
if (!superUrl) {
  console.error('usage: node scripts/ci-pg-roles.mjs <superuser postgres:// URL> [database]');
  process.exit(2);
}
const urls = await createTestRoles(superUrl, {
  database,
  owner: process.env.CI_PG_OWNER_ROLE ?? 'carryover_ci_owner',
  app: process.env.CI_PG_APP_ROLE ?? 'carryover_ci_app',
});
for (const [name, url] of Object.entries(urls)) console.log(`export ${name}='${url}'`);
