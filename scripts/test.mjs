// `npm test`: Vitest, on the machine's PostgreSQL server when one answers (README, "Which tests
// run on which database"). A server run serves each file a copy of a migrated template in
// milliseconds and runs its statements beside the suite's other work; the embedded database's
// own tests and its driver's run on PGlite in the same run (vitest.config.ts, 'server-embedded').
//
// TEST_DATABASE=embedded runs everything on PGlite; TEST_DATABASE=server fails when no server can
// be used (CI). With DATABASE_URL set, the suite uses that server and its roles as they are.
// Otherwise it tries TEST_POSTGRES_URL (a superuser's URL; postgres://postgres@127.0.0.1:5432 by
// default), makes this run's owner and app roles and drops them, with their databases, at the end.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createTestRoles, dropTestRoles, hostPrefix, leftRoles } from './pg-test-roles.mjs';

const want = process.env.TEST_DATABASE ?? '';
if (!['', 'embedded', 'server'].includes(want)) {
  console.error(`TEST_DATABASE must be 'embedded' or 'server', not '${want}'`);
  process.exit(2);
}

const env = { ...process.env };
let cleanup = async () => {};

if (want === 'embedded') {
  for (const name of ['DATABASE_URL', 'DATABASE_OWNER_URL', 'DATABASE_SUPERUSER_URL'])
    delete env[name];
  console.log('npm test: every suite on the embedded database (TEST_DATABASE=embedded)');
} else if (env.DATABASE_URL) {
  console.log(
    `npm test: the suites on the PostgreSQL server of DATABASE_URL (${where(env.DATABASE_URL)})`,
  );
} else {
  const superUrl = env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432';
  const prefix = hostPrefix('run');
  const names = {
    database: `${prefix}${process.pid}`,
    owner: `${prefix}${process.pid}_owner`,
    app: `${prefix}${process.pid}_app`,
  };
  try {
    for (const left of await leftRoles(superUrl, prefix)) await dropTestRoles(superUrl, left);
    Object.assign(env, await createTestRoles(superUrl, names));
    cleanup = () => dropTestRoles(superUrl, names);
    console.log(
      `npm test: the suites on the PostgreSQL server at ${where(superUrl)} (owner and app roles ` +
        `${names.owner}, ${names.app}); the embedded database's own tests on PGlite`,
    );
  } catch (error) {
    const why = `no PostgreSQL server could be used at ${where(superUrl)} (${error.message})`;
    if (want === 'server') {
      console.error(`npm test: ${why}, and TEST_DATABASE=server asks for one`);
      process.exit(1);
    }
    console.log(`npm test: ${why}: every suite on the embedded database, which takes longer`);
  }
}

const vitest = join(
  dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);
const child = spawn(process.execPath, [vitest, 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', async (code, signal) => {
  try {
    await cleanup();
  } catch (error) {
    console.error(`npm test: the run's roles and databases could not be dropped: ${error.message}`);
  }
  process.exit(code ?? (signal ? 1 : 0));
});

function where(url) {
  const { hostname: host, port } = new URL(url);
  return `${host}:${port || 5432}`;
}
