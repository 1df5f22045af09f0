import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../util/project-root.ts';
import { EMBEDDED_ONLY_FILES } from './embedded-only.ts';

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
