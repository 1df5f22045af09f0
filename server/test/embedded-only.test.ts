import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, matchesGlob } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../util/project-root.ts';
import { EMBEDDED_DRIVER_FILES, EMBEDDED_ONLY_FILES } from './embedded-only.ts';

/** The suite's ways to a PostgreSQL server: a test file calling one of them may reach it. */
const SERVER_WAYS =
  /\b(createTestDb|createServerTestDatabase|createEmptyServerDatabase|startTestServer|startFacilityTestServer|start\w*Kit|start\w*Team|seededBefore|openPostgres|testDatabaseRoles)\(|process\.env\.DATABASE_URL/;

describe('the files left out of the pass on a PostgreSQL server', () => {
  it.each(EMBEDDED_ONLY_FILES)('%s reaches no PostgreSQL server', (file) => {
    const path = join(projectRoot(), file);
    expect(existsSync(path)).toBe(true);
    const source = readFileSync(path, 'utf8');
    expect(source.match(SERVER_WAYS)?.[0]).toBeUndefined();
    // A child process given this one's environment would be given the server's URL too.
    if (source.includes('...process.env')) expect(source).toContain("DATABASE_URL: ''");
  });
});

/** Files that ask which database they run on but test the server alone (describe.runIf). */
const SERVER_ALONE = ['server/jobs/job-takeover.test.ts'];

describe('the embedded pass of a run on a server', () => {
  it('holds every server test file that asks which database it runs on', () => {
    const asks =
      /kind === 'pglite'|kind !== 'pglite'|kind === 'postgres'|process\.env\.DATABASE_URL|onTwoRoles|onServer/;
    const files = readdirSync(join(projectRoot(), 'server'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => `server/${name}`)
      // This file names the questions without asking them.
      .filter((file) => file !== 'server/test/embedded-only.test.ts')
      .filter((file) => asks.test(readFileSync(join(projectRoot(), file), 'utf8')));
    expect(files.length).toBeGreaterThan(10);
    const covered = (file: string) =>
      [...EMBEDDED_ONLY_FILES, ...EMBEDDED_DRIVER_FILES].some((glob) => matchesGlob(file, glob));
    expect(files.filter((file) => !covered(file) && !SERVER_ALONE.includes(file))).toEqual([]);
  });
});

describe('this file, one of the embedded ones', () => {
  it('runs with no server URL, also in a run on a server (the embedded pass empties them)', () => {
    for (const name of ['DATABASE_URL', 'DATABASE_OWNER_URL', 'DATABASE_SUPERUSER_URL'])
      expect(process.env[name] ?? '', name).toBe('');
  });
});
