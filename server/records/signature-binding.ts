import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db, Queryable } from '../db/db.ts';
import { writeAuditMany } from '#server/db/audit-bulk.ts';
import type { Actor, AuditEntry } from '../db/audit-write.ts';
import { anchorDir, outsideKey, type OutsideKeyConfig } from '../db/outside-key.ts';
import { canonicalJson } from './controlled.ts';

/*
 * 21 CFR 11.70 and EU GMP Annex 11 §14: a signature is linked to its record so that it cannot
 * be excised, copied or forged by ordinary means. A row in `signatures` alone proves nothing
 * (whoever may INSERT could write one), so each signature also has an entry in the audit hash
 * chain carrying its signer, meaning, time, record, version and content hash, and a MAC over
 * all of them made with a key the database never sees. Without that entry, or with a MAC that
 * does not match the row, the signature is not valid.
 */

export interface BoundSignature {
  id: number;
  facility_id: number;
  document_type: string;
  document_id: number;
  version_number: number;
  action: string;
  signer_role: string;
  meaning: string;
  printed_name: string;
  user_id: number;
  signed_at: Date | string;
  content_hash: string;
  reason: string | null;
  limits_snapshot_id: number | null;
}

/** What is wrong with a signature: null when it is valid. */
export type SignatureProblem = 'record_changed' | 'no_chain_entry' | 'mac' | null;

const keys = new Map<string, Promise<Buffer>>();

/**
 * The signatures' MAC key, derived from the key outside the database (AUDIT_ANCHOR_KEY or the
 * generated one): one secret to keep, and an anchor's HMAC never stands for a signature's.
 */
export function signatureKey(
  config: OutsideKeyConfig,
  warn: (message: string) => void,
): Promise<Buffer> {
  const id = `${config.AUDIT_ANCHOR_KEY ?? ''}\n${anchorDir(config)}`;
  let key = keys.get(id);
  if (!key) {
    key = outsideKey(config, warn).then((outside) =>
      createHmac('sha256', outside).update('carryover electronic signature MAC v1').digest(),
    );
    key.catch(() => keys.delete(id));
    keys.set(id, key);
  }
  return key;
}

const iso = (value: Date | string) =>
  (value instanceof Date ? value : new Date(value)).toISOString();

/** The HMAC-SHA-256 of everything the signature says, its id included (no copying it). */
export function signatureMac(key: Buffer, s: BoundSignature): string {
  const fields = canonicalJson({
    id: s.id,
    facilityId: s.facility_id,
    documentType: s.document_type,
    documentId: s.document_id,
    versionNumber: s.version_number,
    action: s.action,
    signerRole: s.signer_role,
    meaning: s.meaning,
    printedName: s.printed_name,
    userId: s.user_id,
    signedAt: iso(s.signed_at),
    contentHash: s.content_hash,
    reason: s.reason,
    limitsSnapshotId: s.limits_snapshot_id,
  });
  return createHmac('sha256', key).update(fields).digest('hex');
}

/** The values of a signature's chain entry: what it binds, and the MAC over it. */
export function bindingValues(key: Buffer, s: BoundSignature): Record<string, unknown> {
  return {
    signatureId: s.id,
    documentType: s.document_type,
    documentId: s.document_id,
    versionNumber: s.version_number,
    userId: s.user_id,
    printedName: s.printed_name,
    meaning: s.meaning,
    signedAt: iso(s.signed_at),
    contentHash: s.content_hash,
    mac: signatureMac(key, s),
  };
}

/** For each signature, whether a chain entry with the right MAC binds it. */
export async function bindingProblems(
  q: Queryable,
  key: Buffer,
  signatures: readonly BoundSignature[],
): Promise<Map<number, 'no_chain_entry' | 'mac' | null>> {
  const result = new Map<number, 'no_chain_entry' | 'mac' | null>();
  if (signatures.length === 0) return result;
  const entries = await q.query<{ id: string; mac: string }>(
    `select new_values ->> 'signatureId' as id, new_values ->> 'mac' as mac from audit_log
      where domain = 'ElectronicSignature' and new_values ->> 'mac' is not null
        and new_values ->> 'signatureId' = any($1::text[])`,
    [signatures.map((s) => String(s.id))],
  );
  const macs = new Map<string, string[]>();
  for (const e of entries) macs.set(e.id, [...(macs.get(e.id) ?? []), e.mac]);
  for (const s of signatures) {
    const found = macs.get(String(s.id));
    if (!found) {
      result.set(s.id, 'no_chain_entry');
      continue;
    }
    const expected = Buffer.from(signatureMac(key, s));
    // Any entry with the right MAC binds it: one inserted with a wrong MAC cannot unbind it.
    const right = found.some((mac) => {
      const given = Buffer.from(mac);
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    result.set(s.id, right ? null : 'mac');
  }
  return result;
}

/**
 * Runs a binding once per database: afterwards a file beside the anchors (outside the
 * database) names the database, so that what is slipped into a frozen list later, by someone
 * who may change the database's functions, is never bound. Returns what `bind` returned, or 0
 * when it had run before.
 */
export async function oncePerDatabase(
  db: Db,
  config: OutsideKeyConfig,
  marker: string,
  bind: () => Promise<number>,
): Promise<number> {
  const dir = anchorDir(config);
  const file = join(dir, marker);
  const [identity] = await db.query<{ id: string }>('select id::text as id from database_identity');
  const dbId = identity!.id;
  if (existsSync(file) && (await readFile(file, 'utf8')).split('\n').includes(dbId)) return 0;
  const bound = await bind();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  await appendFile(file, `${dbId}\n`, { mode: 0o600 });
  return bound;
}

/** Who writes the entries that bind what was made before its MAC existed. */
export const BINDING_ACTOR: Actor = {
  userId: null,
  userName: 'system (signature binding)',
  ip: null,
  userAgent: null,
  requestId: null,
};

/**
 * Binds the signatures made before MACs existed (the list the migration froze), once per
 * database (oncePerDatabase). Returns how many were bound.
 */
export async function bindEarlierSignatures(
  db: Db,
  config: OutsideKeyConfig,
  warn: (message: string) => void,
): Promise<number> {
  const key = await signatureKey(config, warn);
  return oncePerDatabase(db, config, 'signatures-bound', () =>
    db.transaction(async (tx) => {
      const rows = await tx.query<BoundSignature & { plan_id: number }>(
        `select s.id, s.facility_id, s.document_type, s.document_id, s.version_number, s.action,
                s.signer_role, s.meaning, s.printed_name, s.user_id, s.signed_at, s.content_hash,
                s.reason, s.limits_snapshot_id, f.plan_id
           from signatures s join facilities f on f.id = s.facility_id
          where s.id = any(signatures_before_mac()) order by s.id`,
      );
      const problems = await bindingProblems(tx, key, rows);
      const entries: AuditEntry[] = rows
        .filter((s) => problems.get(s.id) !== null)
        .map((s) => ({
          planId: s.plan_id,
          facilityId: s.facility_id,
          domain: 'ElectronicSignature',
          action: 'Bind',
          entityId: s.document_id,
          newValues: bindingValues(key, s),
        }));
      await writeAuditMany(tx, BINDING_ACTOR, entries);
      return entries.length;
    }),
  );
}
