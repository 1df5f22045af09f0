import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The repository's own configuration, so the test also proves the rule is wired to these files.
const eslint = new ESLint({ cwd: fileURLToPath(new URL('..', import.meta.url)) });

/** The layer reports ESLint gives a file at this path with these imports. */
async function layerReports(filePath: string, ...imports: string[]): Promise<string[]> {
  const code = imports.map((spec) => `import '${spec}';`).join('\n');
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((message) => message.ruleId === 'boundaries/layers')
    .map((message) => message.message);
}

describe('server layers', () => {
  it('reports a library that imports a module, a guard or the app, by path or by alias', async () => {
    const reports = await layerReports(
      'server/records/new-piece.ts',
      '../modules/users/users.routes.ts',
      '#server/http/session-guard.ts',
      '#server/app.ts',
      '../db/db.ts',
      '../entities/entity-store.ts',
    );
    expect(reports).toHaveLength(3);
    expect(reports[0]).toMatch(/are libraries: they import no route, guard or module/);
    expect(reports[0]).toContain('(server/modules/users/users.routes.ts)');
    expect(reports[1]).toContain('(server/http/session-guard.ts)');
    expect(reports[2]).toContain('(server/app.ts)');
  });

  it('reports db/ or util/ importing anything above them', async () => {
    expect(
      await layerReports('server/db/new-piece.ts', '../entities/entity-write.ts', './db.ts'),
    ).toEqual([expect.stringMatching(/bottom layer.*\(server\/entities\/entity-write\.ts\)/)]);
    expect(
      await layerReports('server/util/new-piece.ts', '#server/sessions/session-user.ts'),
    ).toEqual([expect.stringMatching(/bottom layer/)]);
  });

  it('reports http/ importing a module and a module importing the app', async () => {
    expect(
      await layerReports('server/http/new-guard.ts', '#server/modules/auth/policy.ts'),
    ).toEqual([expect.stringMatching(/server\/http\/ imports no module/)]);
    expect(await layerReports('server/modules/users/new-piece.ts', '../../app.ts')).toEqual([
      expect.stringMatching(/wired by server\/app\.ts/),
    ]);
  });
});

describe('module isolation', () => {
  it('reports a module importing a file of another module that is not a shared kernel', async () => {
    const reports = await layerReports(
      'server/modules/feedback/new-piece.ts',
      '#server/modules/dashboard/dashboard-failures.ts',
    );
    expect(reports).toEqual([expect.stringMatching(/only through a shared kernel/)]);
  });

  it('allows its own files, a listed kernel file and a listed kernel module', async () => {
    expect(
      await layerReports(
        'server/modules/feedback/new-piece.ts',
        './feedback.routes.ts',
        '#server/modules/auth/signing-password.ts',
        '#server/modules/audit/audit-log.service.ts',
        '#server/records/controlled.ts',
      ),
    ).toEqual([]);
  });

  it('leaves test files free to build their state through any module', async () => {
    expect(
      await layerReports(
        'server/records/new-piece.test.ts',
        '#server/modules/dashboard/dashboard-failures.ts',
        '#server/app.ts',
      ),
    ).toEqual([]);
  });
});
