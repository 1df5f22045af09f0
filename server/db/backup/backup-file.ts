import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { createGunzip, createGzip } from 'node:zlib';

/**
 * A backup is one gzipped file of JSON lines, one record a line, in this order: the manifest,
 * the keys and anchor files, then each table (its columns, then its rows in batches), the
 * sequences, and an end line that says the file is whole. Every value is PostgreSQL's own text
 * form of it (null stays null), so that numbers, timestamps, bytea and arrays come back exactly
 * as they were, on PGlite and on a server alike.
 */
export const BACKUP_FORMAT = 'carryover-backup';
export const BACKUP_FORMAT_VERSION = 1;

export interface ChainHeadAt {
  chain: string;
  seq: number;
  hash: string;
}

export interface BackupManifest {
  kind: 'manifest';
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  appVersion: string;
  /** When the snapshot was taken, by the database's clock (UTC). */
  takenAt: string;
  databaseKind: 'pglite' | 'postgres';
  databaseId: string;
  /** The migrations applied, in order. */
  migrations: string[];
  /** Rows per table, counted in the snapshot. */
  tables: Record<string, number>;
  chainHeads: ChainHeadAt[];
}

/** A key, or a file of the anchor folder, by the name it has there. */
export interface BackupKeyFile {
  kind: 'file';
  /** settings-secret.key (DATA_DIR), or a file of the anchor folder (anchor.key, anchors…). */
  place: 'dataDir' | 'anchorDir';
  name: string;
  text: string;
  /** A key that came from a variable (SETTINGS_SECRET_KEY, AUDIT_ANCHOR_KEY), not from a file. */
  fromVariable?: 'SETTINGS_SECRET_KEY' | 'AUDIT_ANCHOR_KEY';
}

export interface BackupTable {
  kind: 'table';
  name: string;
  columns: string[];
}

export interface BackupRows {
  kind: 'rows';
  table: string;
  rows: (string | null)[][];
}

export interface BackupSequences {
  kind: 'sequences';
  values: { name: string; lastValue: string; isCalled: boolean }[];
}

export interface BackupEnd {
  kind: 'end';
  tables: number;
  rows: number;
}

export type BackupRecord =
  BackupManifest | BackupKeyFile | BackupTable | BackupRows | BackupSequences | BackupEnd;

export interface BackupWriter {
  write(record: BackupRecord): Promise<void>;
  /** Flushes and closes the file. */
  close(): Promise<void>;
  /** Closes the file after a failure, without waiting for what is buffered. */
  abort(): void;
}

/** A new backup file (mode 0600: it holds the keys), written through gzip. */
export function createBackupWriter(path: string): BackupWriter {
  const file = createWriteStream(path, { mode: 0o600 });
  const gzip = createGzip();
  gzip.pipe(file);
  let failed: Error | undefined;
  const fail = (error: Error) => (failed ??= error);
  file.on('error', fail);
  gzip.on('error', fail);
  return {
    async write(record) {
      if (failed) throw failed;
      // Wait while gzip holds more than it should, so that a large table never sits in memory.
      if (!gzip.write(`${JSON.stringify(record)}\n`)) await once(gzip, 'drain');
    },
    async close() {
      if (failed) throw failed;
      gzip.end();
      await once(file, 'close');
      if (failed) throw failed;
    },
    abort() {
      gzip.destroy();
      file.destroy();
    },
  };
}

/** Not a backup of this format, or a file that ends early. */
export class BackupFileError extends Error {}

/** The records of a backup file, in order; the first must be its manifest. */
export async function* readBackup(path: string): AsyncGenerator<BackupRecord> {
  const input = createReadStream(path).pipe(createGunzip());
  const lines = createInterface({ input, crlfDelay: Infinity });
  let first = true;
  try {
    for await (const line of lines) {
      if (!line) continue;
      let record: BackupRecord;
      try {
        record = JSON.parse(line) as BackupRecord;
      } catch {
        throw new BackupFileError(`${path} is damaged: a line is not JSON`);
      }
      if (first) {
        const m = record as Partial<BackupManifest>;
        if (m.kind !== 'manifest' || m.format !== BACKUP_FORMAT)
          throw new BackupFileError(`${path} is not a Carryover backup`);
        if ((m.formatVersion ?? 0) > BACKUP_FORMAT_VERSION)
          throw new BackupFileError(
            `${path} was written in a newer backup format (${m.formatVersion}) than this build reads`,
          );
        first = false;
      }
      yield record;
    }
  } catch (error) {
    if (error instanceof BackupFileError) throw error;
    // gunzip's "unexpected end of file", "incorrect header check"…
    throw new BackupFileError(
      `${path} cannot be read as a Carryover backup: ${(error as Error).message}`,
    );
  } finally {
    lines.close();
    input.destroy();
  }
  if (first) throw new BackupFileError(`${path} is empty`);
}

/** The manifest and the key files of a backup: what a restore checks before it writes. */
export async function readBackupHead(
  path: string,
): Promise<{ manifest: BackupManifest; files: BackupKeyFile[] }> {
  let manifest: BackupManifest | undefined;
  const files: BackupKeyFile[] = [];
  for await (const record of readBackup(path)) {
    if (record.kind === 'manifest') manifest = record;
    else if (record.kind === 'file') files.push(record);
    else break;
  }
  return { manifest: manifest!, files };
}
