import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function checkPackages(root?: string): Promise<{ code: number; stderr: string }> {
  const args = ['scripts/check-packages.mjs', ...(root ? [root] : [])];
  try {
    await run(process.execPath, args);
    return { code: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'carryover-packages-'));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const manifest = JSON.stringify({
  name: 'fixture',
  engines: { node: '>=22.13' },
  dependencies: { fastify: '1' },
  devDependencies: { vitest: '1' },
});

describe('scripts/check-packages.mjs', () => {
  it('passes on this project', async () => {
    expect(await checkPackages()).toEqual({ code: 0, stderr: '' });
  }, 60_000);

  it('names each undeclared import, dev-only package in the server bundle and narrow engine', async () => {
    const root = project({
      'package.json': manifest,
      'package-lock.json': JSON.stringify({
        packages: {
          '': {},
          'node_modules/fastify': { version: '1.0.0', engines: { node: '>=20' } },
          'node_modules/vitest': { version: '1.0.0', engines: { node: '>=22.18' } },
          // Odd majors are not checked: no site runs one.
          'node_modules/eslint': { version: '9.0.0', engines: { node: '^22.13.0 || >=24' } },
          'node_modules/a/node_modules/cookie': { version: '3.0.0', engines: { node: '>=24' } },
        },
      }),
      'server/main.ts':
        "import fastify from 'fastify';\nimport { it } from 'vitest/config';\nimport '#core/sum.ts';\n",
      'server/main.test.ts': "import { it } from 'vitest';\n",
      'client/Icon.tsx': "import { Smile } from '@ant-design/icons/lib';\nimport 'node:fs';\n",
      'core/sum.ts': "import { readFile } from 'fs/promises';\nexport * from './other.ts';\n",
      'scripts/pdf.mjs': "const path = require.resolve('pdfmake/fonts/Roboto.js');\n",
      'notes/ignored.ts': "import 'left-pad';\n",
    });
    const { code, stderr } = await checkPackages(root);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n').sort()).toEqual([
      'client/Icon.tsx imports @ant-design/icons, which package.json does not declare',
      'cookie@3.0.0 needs Node >=24; engines.node says >=22.13',
      'scripts/pdf.mjs imports pdfmake, which package.json does not declare',
      'server/main.ts is in the server bundle but vitest is only a devDependency',
      'vitest@1.0.0 needs Node >=22.18; engines.node says >=22.13',
    ]);
  }, 60_000);
});
