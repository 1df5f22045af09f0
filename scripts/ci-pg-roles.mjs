// The two-role setup on a PostgreSQL server, for CI and for trying it by hand:
//   eval "$(node scripts/ci-pg-roles.mjs postgres://postgres@127.0.0.1:5432 carryover_ci)"
// As the superuser of the first URL it creates (or resets) an owner role, which may create
// databases and owns the schema, and an app role with no rights of its own; then the database,
// owned by the owner. It prints the two URLs as shell exports, and the superuser's for the
// restore test's amcheck (not a trusted extension: server/test/amcheck.ts); nothing else goes
// to stdout.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const [superUrl, database = 'carryover_ci'] = process.argv.slice(2);
if (!superUrl || !/^[a-z_][a-z0-9_]*$/.test(database)) {
  console.error('usage: node scripts/ci-pg-roles.mjs <superuser postgres:// URL> [database]');
  process.exit(2);
}
const OWNER = process.env.CI_PG_OWNER_ROLE ?? 'carryover_ci_owner';
const APP = process.env.CI_PG_APP_ROLE ?? 'carryover_ci_app';

const client = new pg.Client({ connectionString: new URL('/postgres', superUrl).toString() });
await client.connect();
const ident = (name) => client.escapeIdentifier(name);

async function ensureRole(name, attributes) {
  const password = randomBytes(18).toString('base64url');
  const { rowCount } = await client.query('select 1 from pg_roles where rolname = $1', [name]);
  const verb = rowCount ? 'alter' : 'create';
  await client.query(
    `${verb} role ${ident(name)} with ${attributes} password ${client.escapeLiteral(password)}`,
  );
  return password;
}

try {
  const ownerPassword = await ensureRole(
    OWNER,
    'login createdb nosuperuser nocreaterole nobypassrls',
  );
  const appPassword = await ensureRole(
    APP,
    'login nocreatedb nosuperuser nocreaterole nobypassrls noinherit',
  );
  const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [
    database,
  ]);
  if (!rowCount) await client.query(`create database ${ident(database)} owner ${ident(OWNER)}`);

  const urlOf = (role, password) => {
    const u = new URL(`/${database}`, superUrl);
    u.username = role;
    u.password = password;
    return u.toString();
  };
  console.log(`export DATABASE_OWNER_URL='${urlOf(OWNER, ownerPassword)}'`);
  console.log(`export DATABASE_URL='${urlOf(APP, appPassword)}'`);
  console.log(`export DATABASE_SUPERUSER_URL='${superUrl}'`);
} finally {
  await client.end();
}
