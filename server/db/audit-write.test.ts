import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '#server/test/test-db.ts';
import { testActor } from '#server/test/factories.ts';
import { writeAuditMany } from '#server/db/audit-bulk.ts';
import { writeAudit, type Actor } from './audit-write.ts';
import type { Queryable } from './db.ts';
import type { DocumentDomain } from '#core/audit/audit-events.ts';
import { productsDef } from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  await db?.close();
});

/*
 * What the compiler refuses (issue 28): tsc checks this file, so each line below marked
 * @ts-expect-error must stay an error, or the check fails. Never called.
 */
export async function uncatalogued(q: Queryable, a: Actor): Promise<void> {
  const row = { planId: null };
  // @ts-expect-error a domain nobody catalogued
  await writeAudit(q, a, { ...row, domain: 'Widget', action: 'Create' });
  // @ts-expect-error an action its domain does not take
  await writeAudit(q, a, { ...row, domain: 'Equipment', action: 'Submit' });
  // @ts-expect-error a refusal records what was attempted
  await writeAudit(q, a, { ...row, domain: 'Equipment', action: 'AccessRefused', newValues: {} });
  // @ts-expect-error a read has no old values
  await writeAudit(q, a, { ...row, domain: 'MailOutbox', action: 'Read', oldValues: {} });
  // @ts-expect-error in a list too
  await writeAuditMany(q, a, [{ ...row, domain: 'Authentication', action: 'Create' }]);
}

/** A declaration's domain is a catalogued one, so the record mechanism audits it without a cast. */
export const undeclaredDomain: EntityDef = {
  ...productsDef,
  // @ts-expect-error a declaration under a domain nobody catalogued
  domain: 'Widget',
};
/** A declaration without a document is not taken for one whose audit records a document. */
export const documentless = (def: EntityDef): DocumentDomain =>
  // @ts-expect-error only takesDocument narrows to the document's domains
  def.domain;

describe('an audit row of a catalogued event', () => {
  it('is written with its domain, action and values', async () => {
    await db.transaction((tx) =>
      writeAudit(tx, testActor, {
        planId: null,
        domain: 'Equipment',
        action: 'AccessRefused',
        newValues: { attempted: 'Delete', route: 'DELETE /x' },
      }),
    );
    const rows = await db.query<{ domain: string; action: string; new_values: unknown }>(
      `select domain, action, new_values from audit_log where domain = 'Equipment'`,
    );
    expect(rows).toEqual([
      {
        domain: 'Equipment',
        action: 'AccessRefused',
        new_values: { attempted: 'Delete', route: 'DELETE /x' },
      },
    ]);
  });
});
