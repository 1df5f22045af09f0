import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Installation } from '#core/qualification/pack.ts';
import { configSchema, type Config } from '#server/config.ts';
import type { Queryable } from '#server/db/db.ts';
import { loadMigrations } from '#server/db/migrate.ts';
import {
  checksumListProblems,
  migrationChecksum,
  readChecksumList,
} from '#server/db/migration-checksums.ts';
import { projectRoot } from '#server/util/project-root.ts';

/*
 * The installation report (IQ, EU GMP Annex 15 §3.2; Annex 11 §4.5: the installed system is
 * documented): what runs, on what, with which schema, configuration and third-party code.
 */

const SECRET_NAME = /KEY|SECRET|PASSWORD|TOKEN/i;

/** A secret shows only that it is set; a URL keeps its host but not its password. */
export function maskedValue(name: string, value: unknown): string {
  if (value === undefined || value === null || value === '') return 'not set';
  if (SECRET_NAME.test(name)) return '•••••• (set)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  try {
    const url = new URL(text);
    if (url.password) {
      url.password = '******';
      return url.toString();
    }
  } catch {
    // Not a URL: shown as it is.
  }
  return text;
}

function gitCommit(root: string): string | null {
  if (process.env.CARRYOVER_COMMIT) return process.env.CARRYOVER_COMMIT;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    }).trim();
  } catch {
    // Installed from an archive without git: the version alone names it.
    return null;
  }
}

interface LockEntry {
  version?: string;
  integrity?: string;
  dev?: boolean;
}

function dependencies(root: string): Installation['dependencies'] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  return Object.entries(lock.packages)
    .filter(([path]) => path.startsWith('node_modules/'))
    .map(([path, entry]) => ({
      name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
      version: entry.version ?? 'unknown',
      integrity: entry.integrity ?? null,
      dev: entry.dev === true,
    }));
}

export async function installationReport(q: Queryable, config: Config): Promise<Installation> {
  const root = projectRoot();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const [db] = await q.query<{ version: string }>('select version() as version');
  const applied = new Map(
    (
      await q.query<{ name: string; checksum: string | null }>(
        'select name, checksum from schema_migrations order by name',
      )
    ).map((r) => [r.name, r.checksum]),
  );
  const files = loadMigrations();
  const listed = readChecksumList();
  const problems = checksumListProblems(files, listed);
  for (const file of files) {
    const sum = migrationChecksum(file.sql);
    if (!applied.has(file.name)) problems.push(`${file.name} is not applied to the database`);
    else if (applied.get(file.name) && applied.get(file.name) !== sum)
      problems.push(`${file.name} was applied with another checksum than the file's`);
  }
  return {
    application: { name: pkg.name, version: pkg.version, commit: gitCommit(root) },
    node: process.version,
    database: {
      // The embedded database names itself in its version; a transaction does not carry the kind.
      kind: db?.version.includes('PGlite') ? 'embedded PostgreSQL (PGlite)' : 'PostgreSQL server',
      version: db?.version ?? 'unknown',
    },
    migrations: files.map((f) => ({
      name: f.name,
      sha256: listed.get(f.name) ?? null,
      applied: applied.has(f.name),
    })),
    // Every variable the server reads, set or not: an unset one is part of the configuration too.
    configuration: [...new Set([...Object.keys(configSchema.shape), ...Object.keys(config)])]
      .sort((a, b) => a.localeCompare(b))
      .map((name) => ({
        name,
        value: maskedValue(name, (config as Record<string, unknown>)[name]),
      })),
    dependencies: dependencies(root),
    problems,
  };
}
