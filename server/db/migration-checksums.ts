import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../util/project-root.ts';

/**
 * A migration is never edited once it has landed (DESIGN.md, Data): databases that already ran
 * it would silently differ from new ones. `migrations.sha256` lists the checksum of every
 * migration; a test fails when a listed one changes or a new one is not listed, and
 * `npm run migrations:checksum` lists new ones without ever rewriting an entry.
 */
export const checksumListFile = (): string => join(projectRoot(), 'server/db/migrations.sha256');

/** SHA-256 of the text with LF line endings, so a CRLF checkout does not count as a change. */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');
}

/** The listed checksum of each migration: `sha256sum`'s format, one `<hex>  <file>` a line. */
export function readChecksumList(file = checksumListFile()): Map<string, string> {
  const listed = new Map<string, string>();
  if (!existsSync(file)) return listed;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line.trim());
    if (match) listed.set(match[2]!, match[1]!);
  }
  return listed;
}

/** Every way the migrations and their list disagree; empty when they agree. */
export function checksumListProblems(
  migrations: { name: string; sql: string }[],
  listed: Map<string, string>,
): string[] {
  const problems: string[] = [];
  for (const { name, sql } of migrations) {
    const checksum = listed.get(name);
    if (!checksum) problems.push(`${name} is not listed: run npm run migrations:checksum`);
    else if (checksum !== migrationChecksum(sql))
      problems.push(`${name} changed after it landed: restore it and add a new migration instead`);
  }
  const files = new Set(migrations.map((m) => m.name));
  for (const name of listed.keys())
    if (!files.has(name)) problems.push(`${name} is listed but its file is gone`);
  return problems;
}

/** Appends the migrations not yet listed; entries already there are never rewritten. */
export function listNewMigrations(
  migrations: { name: string; sql: string }[],
  file = checksumListFile(),
): string[] {
  const listed = readChecksumList(file);
  const added = migrations.filter((m) => !listed.has(m.name));
  const text = added.map((m) => `${migrationChecksum(m.sql)}  ${m.name}\n`).join('');
  const endsOpen = existsSync(file) && !/\n$|^$/.test(readFileSync(file, 'utf8'));
  if (text) appendFileSync(file, endsOpen ? `\n${text}` : text);
  return added.map((m) => m.name);
}
