import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { studyKit, type StudyKit } from '#server/test/study-test-kit.ts';

/*
 * Studies go through the one write path of records (server/records/write-record.ts), over HTTP
 * on a real database: an edit from a stale version is refused and changes nothing, and every
 * write keeps a history row and an audit row.
 */

const t = useFacilityTestServer();
let kit: StudyKit;
beforeAll(async () => {
  kit = await studyKit(t);
});

const history = (id: number) =>
  t.server.db.query<{ version: number; row_data: Body }>(
    `select version, row_data from record_versions where table_name = 'studies'
        and record_id = $1 order by id`,
    [id],
  );
const audits = async (id: number) =>
  (
    await t.server.db.query<{ action: string }>(
      `select action from audit_log where domain = 'Study' and entity_id = $1 order by seq`,
      [String(id)],
    )
  ).map((a) => a.action);

describe('a study', () => {
  it('refuses an edit from a stale version, and keeps a version per write, the close included', async () => {
    const protocol = await kit.approvedProtocol();
    const study = await kit.study(protocol.id as number);
    const id = study.id as number;
    const edit = (version: number, title: string) =>
      t.call('POST', `${t.F}/studies/${id}`, { title, reason: 'Renamed', version });
    expect((await edit(1, 'Line 1, after the gasket change')).status).toBe(200);
    const stale = await edit(1, 'Written from what was read before');
    expect(stale.status).toBe(409);
    expect(stale.body.errName).toBe('VersionConflictError');
    const closed = await t.call('POST', `${t.F}/studies/${id}/close`, {
      reason: 'Line retired',
      version: 2,
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const kept = await history(id);
    expect(kept.map((k) => [k.version, k.row_data.title, k.row_data.outcome])).toEqual([
      [1, 'Cleaning of Line 1', 'On Going'],
      [2, 'Line 1, after the gasket change', 'On Going'],
      [3, 'Line 1, after the gasket change', 'Failed'],
    ]);
    expect(await audits(id)).toEqual(['Create', 'Update', 'Close']);
    // The close changes nothing its signers see: the version being built keeps the edit's title.
    const [working] = await t.server.db.query<{ version_number: number; title: string }>(
      `select version_number, title from controlled_versions
        where document_type = 'Study' and document_id = $1`,
      [id],
    );
    expect(working).toMatchObject({ version_number: 1 });
    expect(working!.title).toMatch(/Line 1, after the gasket change$/);
  });
});
