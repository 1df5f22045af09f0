import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../config.ts';

export type OutsideKeyConfig = Pick<Config, 'AUDIT_ANCHOR_DIR' | 'AUDIT_ANCHOR_KEY' | 'DATA_DIR'>;

const KEY_FILE = 'anchor.key';

/** Where the anchors (and the generated key) are kept: outside the database. */
export function anchorDir(config: Pick<Config, 'AUDIT_ANCHOR_DIR' | 'DATA_DIR'>): string {
  return resolve(config.AUDIT_ANCHOR_DIR ?? join(config.DATA_DIR, 'audit-anchors'));
}

/**
 * The key the database never sees, for the anchors of the audit chain and the MACs of the
 * electronic signatures: AUDIT_ANCHOR_KEY, or else a random key made once in the anchor
 * directory, readable by the server's user only. That one still detects a change made inside
 * the database, but not one by someone who can also read the directory; hence the warning.
 */
export async function outsideKey(
  config: OutsideKeyConfig,
  warn: (message: string) => void,
): Promise<string> {
  if (config.AUDIT_ANCHOR_KEY) return config.AUDIT_ANCHOR_KEY;
  const dir = anchorDir(config);
  const path = join(dir, KEY_FILE);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    await writeFile(path, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
    warn(
      `AUDIT_ANCHOR_KEY is not set: generated an anchor key in ${path}. Set AUDIT_ANCHOR_KEY from a secret store so that whoever can rewrite the database cannot also re-sign the anchors.`,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return (await readFile(path, 'utf8')).trim();
}
