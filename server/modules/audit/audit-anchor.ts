import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { appendFile, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Queryable } from '#server/db/db.ts';
import { anchorDir, outsideKey, type OutsideKeyConfig } from '#server/db/outside-key.ts';
import {
  readRestores,
  restoreHmac,
  type DatabaseRestore,
} from '#server/db/backup/database-restores.ts';

/**
 * The chain heads, signed and written outside the database (AT-5, 21 CFR 11.10(e)) at most a
 * minute apart while rows are written: someone who can rewrite the audit table and recompute
 * every hash still cannot make the rewritten chain match what was recorded before the rewrite,
 * nor forge a new record without the HMAC key, which the database never sees.
 */
export interface Anchor {
  db: string;
  chain: string;
  seq: number;
  hash: string;
  at: string;
  /**
   * The hash of every row written since the chain's previous anchor, from seq `from` to `seq`,
   * so that verify names the first rewritten row, not only the anchor after it. Older anchors
   * hold the head alone.
   */
  from?: number;
  hashes?: string[];
  hmac: string;
}

export interface AnchorStore {
  readonly file: string;
  /**
   * Appends one signed line per chain head; with `onlyMoved`, only for the chains written to
   * since their last anchor (a quiet database gets no new lines). Returns what was written.
   */
  write(q: Queryable, options?: { onlyMoved?: boolean }): Promise<Anchor[]>;
  /** The anchors of this database, each with whether its HMAC is right. */
  read(q: Queryable): Promise<(Anchor & { signed: boolean })[]>;
}

export const ANCHOR_FILE = 'audit-anchors.jsonl';
export { anchorDir };

export function anchorHmac(key: string, a: Omit<Anchor, 'hmac'>): string {
  const fields: unknown[] = [a.db, a.chain, a.seq, a.hash, a.at];
  if (a.hashes) fields.push(a.from, a.hashes);
  return createHmac('sha256', key).update(JSON.stringify(fields)).digest('hex');
}

function sameHex(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

export async function databaseId(q: Queryable): Promise<string> {
  const [row] = await q.query<{ id: string }>('select id::text as id from database_identity');
  if (!row) throw new Error('database_identity is empty');
  return row.id;
}

/**
 * What the restores of this database (server/db/backup) add to its anchors. A restored copy has
 * an id of its own; the anchors its original signed hold for the rows the backup held, so those
 * of an earlier id count up to that chain's head in the backup, and the later ones (the original
 * went on without this copy) do not. Each restore's heads are an anchor of the copy itself,
 * signed like one: a forged restore reads as a forged anchor, never as a reason to skip anchors.
 */
function restoredAnchors(restores: DatabaseRestore[], db: string, key: string) {
  const upTo = new Map<string, number>();
  const own: (Anchor & { signed: boolean })[] = [];
  for (const r of restores) {
    const signed = sameHex(r.hmac, restoreHmac(key, r));
    for (const [chain, seq, hash] of r.heads) {
      if (signed) upTo.set(`${r.previousDatabaseId} ${chain}`, seq);
      if (r.databaseId === db)
        own.push({ db, chain, seq, hash, at: r.restoredAt, hmac: r.hmac, signed });
    }
  }
  return { upTo, own };
}

function parseLine(line: string): Anchor | undefined {
  try {
    return JSON.parse(line) as Anchor;
  } catch {
    return undefined;
  }
}

/** The hashes of a chain's rows `from`..`to`, one per seq ('' where a row is missing). */
async function rowHashes(q: Queryable, chain: string, from: number, to: number) {
  const rows = await q.query<{ seq: number; hash: string }>(
    'select seq::int as seq, hash from audit_log where chain = $1 and seq between $2 and $3',
    [chain, from, to],
  );
  const hashes = Array.from({ length: Math.max(0, to - from + 1) }, () => '');
  for (const r of rows) hashes[r.seq - from] = r.hash;
  return hashes;
}

export function createAnchorStore(
  config: OutsideKeyConfig,
  warn: (message: string) => void,
): AnchorStore {
  const dir = anchorDir(config);
  const file = join(dir, ANCHOR_FILE);
  let key: string | undefined;
  const keyOf = async () => (key ??= await outsideKey(config, warn));
  // The last anchored seq of each chain ("db chain"), from the signed lines of the file read so
  // far; lines appended by another writer are read on the next write, from where it stopped.
  const lastSeq = new Map<string, number>();
  let readUpTo = 0;
  let queue: Promise<unknown> = Promise.resolve();

  async function catchUp(): Promise<void> {
    if (!existsSync(file)) return;
    const k = await keyOf();
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      if (size < readUpTo) {
        // The file was moved aside (a new key): start again from what the new one holds.
        readUpTo = 0;
        lastSeq.clear();
      }
      if (size === readUpTo) return;
      const buffer = Buffer.alloc(size - readUpTo);
      await handle.read(buffer, 0, buffer.length, readUpTo);
      const text = buffer.toString('utf8');
      const complete = text.lastIndexOf('\n') + 1;
      readUpTo += Buffer.byteLength(text.slice(0, complete));
      for (const line of text.slice(0, complete).split('\n')) {
        const a = line.trim() ? parseLine(line) : undefined;
        if (!a || typeof a.hmac !== 'string' || !sameHex(a.hmac, anchorHmac(k, a))) continue;
        const id = `${a.db} ${a.chain}`;
        lastSeq.set(id, Math.max(lastSeq.get(id) ?? 0, a.seq));
      }
    } finally {
      await handle.close();
    }
  }

  async function writeNow(q: Queryable, onlyMoved: boolean): Promise<Anchor[]> {
    const db = await databaseId(q);
    await catchUp();
    const heads = await q.query<{ chain: string; seq: number; hash: string; at: string }>(
      `select chain, seq::int as seq, hash, to_char(now() at time zone 'UTC',
              'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at
         from audit_chain_heads where seq > 0 order by chain`,
    );
    const k = await keyOf();
    // A restored copy's first anchors start after the heads its restore signed.
    const restored = new Map(
      restoredAnchors(await readRestores(q), db, k)
        .own.filter((a) => a.signed)
        .map((a) => [a.chain, a.seq]),
    );
    const anchors: Anchor[] = [];
    for (const h of heads) {
      const last = lastSeq.get(`${db} ${h.chain}`) ?? restored.get(h.chain) ?? 0;
      if (onlyMoved && h.seq <= last) continue;
      const from = Math.min(last, h.seq) + 1;
      const a = {
        db,
        chain: h.chain,
        seq: h.seq,
        hash: h.hash,
        at: h.at,
        from,
        hashes: await rowHashes(q, h.chain, from, h.seq),
      };
      anchors.push({ ...a, hmac: anchorHmac(k, a) });
    }
    if (anchors.length === 0) return anchors;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    await appendFile(file, anchors.map((a) => `${JSON.stringify(a)}\n`).join(''), {
      mode: 0o600,
    });
    return anchors;
  }

  return {
    file,
    write(q, options) {
      // One write at a time, so that each starts where the one before ended.
      const next = queue.then(() => writeNow(q, options?.onlyMoved === true));
      queue = next.catch(() => undefined);
      return next;
    },
    async read(q) {
      const restores = await readRestores(q);
      if (!existsSync(file) && restores.length === 0) return [];
      const db = await databaseId(q);
      const k = await keyOf();
      const { upTo, own } = restoredAnchors(restores, db, k);
      const text = existsSync(file) ? await readFile(file, 'utf8') : '';
      const lines = text.split('\n').filter((line) => line.trim());
      const anchors = lines.flatMap((line) => {
        const a = parseLine(line);
        if (!a) return [];
        if (a.db !== db && !(a.seq <= (upTo.get(`${a.db} ${a.chain}`) ?? 0))) return [];
        const signed = typeof a.hmac === 'string' && sameHex(a.hmac, anchorHmac(k, a));
        return [{ ...a, signed }];
      });
      return [...anchors, ...own];
    },
  };
}

/**
 * Anchors the chains written to, now and then every `seconds` (AUDIT_ANCHOR_INTERVAL_SECONDS):
 * a rewrite of rows older than that is found by verify. A quiet database costs one read of the
 * chain heads a tick and no new line. The timer never keeps the process alive.
 */
export function scheduleAnchors(
  q: Queryable,
  store: AnchorStore,
  seconds: number,
  onError: (error: unknown) => void,
): () => void {
  let running = false;
  // A tick while the last write still runs is skipped: the next one takes its rows too.
  const run = () => {
    if (running) return;
    running = true;
    store
      .write(q, { onlyMoved: true })
      .catch(onError)
      .finally(() => (running = false));
  };
  run();
  const timer = setInterval(run, seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
