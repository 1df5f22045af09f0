import { describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { testActor } from '#server/test/factories.ts';
import { lockedAssessment, writeAssessment } from './change-assessments.service.ts';

/*
 * A change assessment goes through the one write path (server/records/write-record.ts): the
 * write itself refuses a version other than the one the row was read at, whatever its caller
 * checked, and leaves no audit row then; every write keeps a history row.
 */

const t = useFacilityTestServer();
const scope = () => ({ planId: t.planId, facilityId: t.facilityId });

const audits = async (id: number) =>
  (
    await t.server.db.query<{ action: string }>(
      `select action from audit_log where domain = 'ChangeAssessment' and entity_id = $1
        order by seq`,
      [String(id)],
    )
  ).map((a) => a.action);

describe('a change assessment', () => {
  it('is written only at the version it was read at, with a history row per write', async () => {
    const created = await t.call('POST', `${t.F}/change-assessments`, {
      title: 'New gasket',
      changeType: 'HBEL/dose/batch change',
    });
    expect(created.status).toBe(200);
    const ca = created.body.changeAssessment as Body;
    const db = t.server.db;
    const read = await db.transaction((tx) =>
      lockedAssessment(tx, testActor, scope(), ca.id as number, 1),
    );
    const edited = await t.call('POST', `${t.F}/change-assessments/${ca.id}`, {
      title: 'New gasket, PTFE',
      changeType: 'HBEL/dose/batch change',
      description: '',
      mocId: null,
      reason: 'Material named',
      version: 1,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);

    const stale = db.transaction((tx) =>
      writeAssessment(tx, testActor, scope(), read, {
        set: { title: 'Written from what was read before' },
        audit: { action: 'Update', reason: 'Stale' },
      }),
    );
    await expect(stale).rejects.toMatchObject({ errName: 'VersionConflictError' });
    expect(await audits(ca.id as number)).toEqual(['Create', 'Update']);

    const kept = await db.query<{ version: number; title: string }>(
      `select version, row_data ->> 'title' as title from record_versions
        where table_name = 'change_assessments' and record_id = $1 order by id`,
      [ca.id],
    );
    expect(kept).toEqual([
      { version: 1, title: 'New gasket' },
      { version: 2, title: 'New gasket, PTFE' },
    ]);
  });
});
