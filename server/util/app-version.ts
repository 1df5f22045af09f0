import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './project-root.ts';

let version: string | undefined;

/** This build's version, as package.json gives it. */
export function appVersion(): string {
  version ??= String(
    (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version?: unknown })
      .version ?? 'unknown',
  );
  return version;
}
