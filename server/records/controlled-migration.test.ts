import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { openEmptyPglite } from '../test/empty-pglite.ts';
import { seedFirstStart } from '../db/seed.ts';

/*
 * The migration to controlled records keeps what a facility had: approval policies in the old
 * shape become steps under the contract's document types (those without one are dropped), and
 * SOPs and register entries become their version 1 (Approved entries Approved and Signed).
 */

const MIGRATION = '20261124100100_controlled_records.sql';
let db: Db;
let facilityId: number;
beforeAll(async () => {
  db = await openEmptyPglite();
  const all = loadMigrations();
  await migrate(db, { migrations: all.filter((m) => m.name < MIGRATION) });
  await seedFirstStart(db, { ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'Admin#12345' });
  const [f] = await db.query<{ id: number }>('select id from facilities order by id limit 1');
  facilityId = f!.id;
  const rule = (key: string, body: object) =>
    db.query(
      `insert into facility_rules (facility_id, kind, rule_key, body) values ($1, 'ApprovalPolicy', $2, $3)`,
      [facilityId, key, JSON.stringify(body)],
    );
  await rule('Study report', {
    requireReview: true,
    reviewers: { minimum: 1, roleIds: [] },
    approvers: { minimum: 2, roleIds: [] },
    sequential: true,
    allowSelfApproval: true,
  });
  await rule('Protocol', {
    requireReview: false,
    reviewers: { minimum: 0, roleIds: [] },
    approvers: { minimum: 1, roleIds: [] },
    sequential: true,
    allowSelfApproval: false,
  });
  await rule('Master data snapshot', { requireReview: false });
  await db.query(
    `insert into sops (facility_id, sop_number, name) values ($1, 'SOP-1', 'Blender')`,
    [facilityId],
  );
  const entries: [string, string][] = [
    ['CVP-1', 'Approved'],
    ['CVP-2', 'BeingReviewed'],
  ];
  for (const [number, status] of entries)
    await db.query(
      `insert into document_versions (facility_id, document_number, name, document_type,
         current_version, status) values ($1, $2, 'Protocol', 'Protocol', '1.0', $3)`,
      [facilityId, number, status],
    );
  expect(await migrate(db)).toContain(MIGRATION);
});
afterAll(async () => {
  await db?.close();
});

describe('the migration to controlled records', () => {
  it('maps approval policies to the contract’s types and steps, dropping the unmappable', async () => {
    const rows = await db.query<{ rule_key: string; body: unknown }>(
      `select rule_key, body from facility_rules where kind = 'ApprovalPolicy' order by rule_key`,
    );
    expect(rows).toEqual([
      {
        rule_key: 'Protocol',
        body: {
          allowSelfApproval: false,
          steps: [{ order: 1, signerRole: 'Approver', roleIds: [], minSignatures: 1 }],
        },
      },
      {
        rule_key: 'Study',
        body: {
          allowSelfApproval: true,
          steps: [
            { order: 1, signerRole: 'Reviewer', roleIds: [], minSignatures: 1 },
            { order: 2, signerRole: 'Approver', roleIds: [], minSignatures: 2 },
          ],
        },
      },
    ]);
  });

  it('makes every SOP and register entry its version 1, and drops the hand-set status', async () => {
    const versions = await db.query<{
      document_type: string;
      title: string;
      status: string;
      signature_state: string | null;
    }>(
      `select document_type, title, status, signature_state from controlled_versions
        where document_type in ('SOP', 'DocumentVersion') order by document_type, title`,
    );
    expect(versions).toEqual([
      {
        document_type: 'DocumentVersion',
        title: 'CVP-1 Protocol',
        status: 'Approved',
        signature_state: 'Signed',
      },
      {
        document_type: 'DocumentVersion',
        title: 'CVP-2 Protocol',
        status: 'BeingBuilt',
        signature_state: null,
      },
      { document_type: 'SOP', title: 'SOP-1 Blender', status: 'BeingBuilt', signature_state: null },
    ]);
    const columns = await db.query(
      `select 1 from information_schema.columns where table_name = 'document_versions' and column_name = 'status'`,
    );
    expect(columns).toHaveLength(0);
  });
});
