// The two-role setup on a PostgreSQL server for a test run, as in production (README, "Two
// database roles"): an owner, which may create databases and owns the schema, and an app role
// with no rights of its own. Made by a superuser; used by `npm test` (scripts/test.mjs) and by
// scripts/ci-pg-roles.mjs for trying it by hand.
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';

const NAME = /^[a-z_][a-z0-9_]*$/;

export async function asSuperuser(superUrl, work, database = 'postgres') {
  const client = new pg.Client({
    connectionString: new URL(`/${database}`, superUrl).toString(),
    connectionTimeoutMillis: 5_000,
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates (or gives new passwords to) the roles `owner` and `app` and the database, owned by
 * `owner`; answers the URLs the suite reads: DATABASE_OWNER_URL, DATABASE_URL (the app role)
 * and DATABASE_SUPERUSER_URL (the restore test's amcheck, not a trusted extension).
 */
export async function createTestRoles(superUrl, { database, owner, app }) {
  for (const name of [database, owner, app])
    if (!NAME.test(name)) throw new Error(`not a plain PostgreSQL name: ${name}`);
  return asSuperuser(superUrl, async (client) => {
    const ident = (name) => client.escapeIdentifier(name);
    const ensureRole = async (name, attributes) => {
      const password = randomBytes(18).toString('base64url');
      const { rowCount } = await client.query('select 1 from pg_roles where rolname = $1', [name]);
      await client.query(
        `${rowCount ? 'alter' : 'create'} role ${ident(name)} with ${attributes} ` +
          `password ${client.escapeLiteral(password)}`,
      );
      return password;
    };
    const ownerPassword = await ensureRole(
      owner,
      'login createdb nosuperuser nocreaterole nobypassrls',
    );
    const appPassword = await ensureRole(
      app,
      'login nocreatedb nosuperuser nocreaterole nobypassrls noinherit',
    );
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [
      database,
    ]);
    if (!rowCount) await client.query(`create database ${ident(database)} owner ${ident(owner)}`);
    const urlOf = (role, password) => {
      const url = new URL(`/${database}`, superUrl);
      url.username = role;
      url.password = password;
      return url.toString();
    };
    return {
      DATABASE_OWNER_URL: urlOf(owner, ownerPassword),
      DATABASE_URL: urlOf(app, appPassword),
      DATABASE_SUPERUSER_URL: superUrl,
    };
  });
}

/** Drops every database `owner` owns, then the roles (what a run left, crashed runs' too). */
export async function dropTestRoles(superUrl, { owner, app }) {
  await asSuperuser(superUrl, async (client) => {
    const ident = (name) => client.escapeIdentifier(name);
    const { rows } = await client.query(
      `select datname from pg_database d join pg_roles r on r.oid = d.datdba where r.rolname = $1`,
      [owner],
    );
    for (const { datname } of rows)
      await client.query(`drop database if exists ${ident(datname)} with (force)`);
    for (const role of [app, owner]) {
      const { rowCount } = await client.query('select 1 from pg_roles where rolname = $1', [role]);
      if (!rowCount) continue;
      await client.query(`drop owned by ${ident(role)}`);
      await client.query(`drop role ${ident(role)}`);
    }
  });
}

/**
 * The start of the names of this host's roles of one kind (`run`: npm test's): a crashed run's
 * roles are dropped by a later one here, never another host's.
 */
export function hostPrefix(kind) {
  return `carryover_${kind}_${createHash('sha1').update(hostname()).digest('hex').slice(0, 6)}_`;
}

/**
 * The roles of earlier runs named by `prefix` and then a pid (the first number after it) that no
 * longer runs on this host.
 */
export async function leftRoles(superUrl, prefix) {
  return asSuperuser(superUrl, async (client) => {
    const { rows } = await client.query(
      `select rolname from pg_roles where starts_with(rolname, $1) and rolname like '%\\_owner'`,
      [prefix],
    );
    return rows
      .map(({ rolname }) => ({
        owner: rolname,
        pid: Number(/^\d+/.exec(rolname.slice(prefix.length))?.[0] ?? 0),
      }))
      .filter(({ pid }) => pid > 0 && !isAlive(pid))
      .map(({ owner }) => ({ owner, app: `${owner.slice(0, -6)}_app` }));
  });
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
