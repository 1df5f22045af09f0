import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '#server/config.ts';
import type { Queryable } from '#server/db/db.ts';

/**
 * The chain heads, signed and written outside the database (a "daily signed export of the
 * chain head", AT-5): someone who can rewrite the audit table and recompute every hash still
 * cannot make the rewritten chain match a head recorded before the rewrite, nor forge a new
 * record without the HMAC key, which the database never sees.
 */
export interface Anchor {
  db: string;
  chain: string;
  seq: number;
  hash: string;
  at: string;
  hmac: string;
}

export interface AnchorStore {
  readonly file: string;
  /** Appends one signed line per chain head; returns what was written. */
  write(q: Queryable): Promise<Anchor[]>;
  /** The anchors of this database, each with whether its HMAC is right. */
  read(q: Queryable): Promise<(Anchor & { signed: boolean })[]>;
}

const KEY_FILE = 'anchor.key';
export const ANCHOR_FILE = 'audit-anchors.jsonl';

export function anchorDir(config: Pick<Config, 'AUDIT_ANCHOR_DIR' | 'DATA_DIR'>): string {
  return resolve(config.AUDIT_ANCHOR_DIR ?? join(config.DATA_DIR, 'audit-anchors'));
}

export function anchorHmac(key: string, a: Omit<Anchor, 'hmac'>): string {
  return createHmac('sha256', key)
    .update(JSON.stringify([a.db, a.chain, a.seq, a.hash, a.at]))
    .digest('hex');
}

function sameHex(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

async function databaseId(q: Queryable): Promise<string> {
  const [row] = await q.query<{ id: string }>('select id::text as id from database_identity');
  if (!row) throw new Error('database_identity is empty');
  return row.id;
}

export function createAnchorStore(
  config: Pick<Config, 'AUDIT_ANCHOR_DIR' | 'AUDIT_ANCHOR_KEY' | 'DATA_DIR'>,
  warn: (message: string) => void,
): AnchorStore {
  const dir = anchorDir(config);
  const file = join(dir, ANCHOR_FILE);
  let key = config.AUDIT_ANCHOR_KEY;

  // Without AUDIT_ANCHOR_KEY a random key is made once, readable by the server's user only.
  // It still detects a rewrite made inside the database, but not one by someone who can also
  // read this directory; hence the warning.
  async function keyOf(): Promise<string> {
    if (key) return key;
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
    key = (await readFile(path, 'utf8')).trim();
    return key;
  }

  return {
    file,
    async write(q) {
      const db = await databaseId(q);
      const heads = await q.query<{ chain: string; seq: number; hash: string; at: string }>(
        `select chain, seq, hash, to_char(now() at time zone 'UTC',
                'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at
           from audit_chain_heads where seq > 0 order by chain`,
      );
      const k = await keyOf();
      const anchors = heads.map((h) => {
        const a = { db, chain: h.chain, seq: h.seq, hash: h.hash, at: h.at };
        return { ...a, hmac: anchorHmac(k, a) };
      });
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      await appendFile(file, anchors.map((a) => `${JSON.stringify(a)}\n`).join(''), {
        mode: 0o600,
      });
      return anchors;
    },
    async read(q) {
      if (!existsSync(file)) return [];
      const db = await databaseId(q);
      const k = await keyOf();
      const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line.trim());
      return lines.flatMap((line) => {
        let a: Anchor;
        try {
          a = JSON.parse(line) as Anchor;
        } catch {
          return [];
        }
        if (a.db !== db) return [];
        const signed = typeof a.hmac === 'string' && sameHex(a.hmac, anchorHmac(k, a));
        return [{ ...a, signed }];
      });
    },
  };
}

/** Writes anchors now and then every `hours`; the timer never keeps the process alive. */
export function scheduleAnchors(
  q: Queryable,
  store: AnchorStore,
  hours: number,
  onError: (error: unknown) => void,
): () => void {
  const run = () => void store.write(q).catch(onError);
  run();
  const timer = setInterval(run, hours * 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
