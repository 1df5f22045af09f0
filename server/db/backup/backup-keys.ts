import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '#server/config.ts';
import { anchorDir } from '../outside-key.ts';
import type { BackupKeyFile } from './backup-file.ts';

/**
 * The keys and anchors a database needs beside it (DESIGN.md, "Keys and anchors"): the settings
 * key that encrypts secrets kept in the settings, and the anchor folder (its key, the signed
 * chain heads, the list of databases whose early signatures were bound). Without them a restored
 * database reads every chain as broken and its settings' secrets as undecryptable.
 */
export type KeyConfig = Pick<
  Config,
  'DATA_DIR' | 'AUDIT_ANCHOR_DIR' | 'AUDIT_ANCHOR_KEY' | 'SETTINGS_SECRET_KEY'
>;

const SETTINGS_KEY_FILE = 'settings-secret.key';
const ANCHOR_KEY_FILE = 'anchor.key';
/** Files of lines that several databases' entries share: merged, never replaced. */
const LINE_FILES = new Set(['audit-anchors.jsonl', 'signatures-bound']);
const SIGNATURES_BOUND = 'signatures-bound';

function dirOf(config: KeyConfig, place: BackupKeyFile['place']): string {
  return place === 'dataDir' ? config.DATA_DIR : anchorDir(config);
}

/** Whole lines only: a line the running server is appending now is the next backup's. */
function wholeLines(text: string): string {
  return text.slice(0, text.lastIndexOf('\n') + 1);
}

export async function collectKeyFiles(config: KeyConfig): Promise<BackupKeyFile[]> {
  const files: BackupKeyFile[] = [];
  if (config.SETTINGS_SECRET_KEY) {
    files.push({
      kind: 'file',
      place: 'dataDir',
      name: SETTINGS_KEY_FILE,
      text: config.SETTINGS_SECRET_KEY,
      fromVariable: 'SETTINGS_SECRET_KEY',
    });
  } else if (existsSync(join(config.DATA_DIR, SETTINGS_KEY_FILE))) {
    const text = await readFile(join(config.DATA_DIR, SETTINGS_KEY_FILE), 'utf8');
    files.push({ kind: 'file', place: 'dataDir', name: SETTINGS_KEY_FILE, text });
  }
  if (config.AUDIT_ANCHOR_KEY) {
    files.push({
      kind: 'file',
      place: 'anchorDir',
      name: ANCHOR_KEY_FILE,
      text: config.AUDIT_ANCHOR_KEY,
      fromVariable: 'AUDIT_ANCHOR_KEY',
    });
  }
  const dir = anchorDir(config);
  if (!existsSync(dir)) return files;
  for (const name of readdirSync(dir).sort()) {
    if (config.AUDIT_ANCHOR_KEY && name === ANCHOR_KEY_FILE) continue;
    if (!statSync(join(dir, name)).isFile()) continue;
    const text = await readFile(join(dir, name), 'utf8');
    files.push({
      kind: 'file',
      place: 'anchorDir',
      name,
      text: LINE_FILES.has(name) ? wholeLines(text) : text,
    });
  }
  return files;
}

/** A key of the backup that the target already has otherwise: restoring would lose one. */
export class KeyConflictError extends Error {}

const lines = (text: string) => text.split('\n').filter((line) => line.trim());

/**
 * Refuses before anything is written when a key of the backup differs from the target's
 * (a variable set to another key, or another key file where it would go).
 */
export async function checkKeyFiles(config: KeyConfig, files: BackupKeyFile[]): Promise<void> {
  for (const file of files) {
    if (LINE_FILES.has(file.name)) continue;
    const variable = file.fromVariable ?? variableOf(file);
    const configured = variable ? config[variable] : undefined;
    if (configured !== undefined) {
      if (configured.trim() !== file.text.trim())
        throw new KeyConflictError(
          `${variable} differs from the key in the backup: set it to the backup's key (or unset it to use the backup's)`,
        );
      continue;
    }
    const path = join(dirOf(config, file.place), file.name);
    if (existsSync(path) && (await readFile(path, 'utf8')).trim() !== file.text.trim())
      throw new KeyConflictError(`${path} holds another key than the backup: move it away first`);
  }
}

function variableOf(file: BackupKeyFile): 'SETTINGS_SECRET_KEY' | 'AUDIT_ANCHOR_KEY' | undefined {
  if (file.place === 'dataDir' && file.name === SETTINGS_KEY_FILE) return 'SETTINGS_SECRET_KEY';
  if (file.place === 'anchorDir' && file.name === ANCHOR_KEY_FILE) return 'AUDIT_ANCHOR_KEY';
  return undefined;
}

/**
 * Writes the backup's keys where the target reads them (a key from a variable goes into the
 * file the server falls back to when the variable is unset) and adds the anchor lines the
 * target lacks. `renamed` carries the database's new id to the list of bound signatures.
 * Returns the files it created (not those it found, nor those it added lines to).
 */
export async function writeKeyFiles(
  config: KeyConfig,
  files: BackupKeyFile[],
  renamed: { from: string; to: string },
): Promise<string[]> {
  const created: string[] = [];
  for (const file of files) {
    const variable = file.fromVariable ?? variableOf(file);
    if (variable && config[variable] !== undefined) continue;
    const dir = dirOf(config, file.place);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, file.name);
    if (!existsSync(path)) created.push(path);
    if (!LINE_FILES.has(file.name)) {
      if (!existsSync(path)) await writeFile(path, file.text, { mode: 0o600, flag: 'wx' });
      continue;
    }
    const have = new Set(existsSync(path) ? lines(await readFile(path, 'utf8')) : []);
    const add = lines(file.text).filter((line) => !have.has(line));
    // Signatures bound under the original id were bound in the rows this copy holds too.
    if (file.name === SIGNATURES_BOUND && lines(file.text).includes(renamed.from))
      add.push(renamed.to);
    if (add.length > 0) await appendFile(path, `${add.join('\n')}\n`, { mode: 0o600 });
  }
  return created;
}
