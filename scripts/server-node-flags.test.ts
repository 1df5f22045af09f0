import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { projectRoot } from '#server/util/project-root.ts';
import { SERVER_NODE_FLAGS } from './server-node-flags.mjs';

const root = projectRoot();

it('npm start and the README’s ways of starting the server pass the server’s Node flags', () => {
  const flags = SERVER_NODE_FLAGS.join(' ');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  expect(pkg.scripts.start).toBe(`exec node ${flags} scripts/start.mjs`);
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const starts = readme.split('\n').filter((line) => /node .*scripts\/start\.mjs/.test(line));
  expect(starts.length).toBeGreaterThanOrEqual(2);
  for (const line of starts) expect(line).toContain(`node ${flags} scripts/start.mjs`);
});
