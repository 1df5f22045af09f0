import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { studyKit, type StudyKit } from '#server/test/study-test-kit.ts';

/* Studies: create from an approved protocol, list, edit, close, permissions, audit rows. */

const t = useFacilityTestServer();
let kit: StudyKit;

beforeAll(async () => {
  kit = await studyKit(t);
});

const lastAudit = async (id: number) => {
  const [row] = await t.server.db.query<Body>(
    `select action, reason, old_values, new_values from audit_log
      where domain = 'Study' and entity_id = $1 order by id desc limit 1`,
    [id],
  );
  return row;
};

const person = async (rights: Record<string, string[]>) => {
  const user = await buildUser(t.server.db, { permissions: permissionsWith(rights) });
  return t.server.login(user.username, user.password);
};

describe('creating a study', () => {
  it('is refused while the protocol has no approved version', async () => {
    const draft = await kit.protocol();
    const res = await t.call('POST', `${t.F}/studies`, {
      title: 'Too early',
      studyType: 'Validation',
      protocolId: draft.id,
    });
    expect(res.status).toBe(409);
    expect(res.body.errName).toBe('TransactionLocked');
    expect(res.body.message).toBe('The protocol has no approved version');
    const unknown = await t.call('POST', `${t.F}/studies`, {
      title: 'Nothing',
      studyType: 'Validation',
      protocolId: 999_999,
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].property).toBe('protocolId');
  });

  it('numbers per facility and pins the version in force and the latest snapshot', async () => {
    const snapshot = await kit.snapshot();
    const protocol = await kit.approvedProtocol({ requiredPasses: 4 });
    // A revision being built does not change what a new study follows.
    const current = (await t.call('GET', `${t.F}/protocols/${protocol.id}`)).body;
    await t.call('POST', `${t.F}/protocols/${protocol.id}`, {
      name: 'Revised, not approved',
      reason: 'Draft',
      version: current.version,
    });
    const first = await kit.study(protocol.id);
    const second = await kit.study(protocol.id, { title: 'Second' });
    expect(first).toMatchObject({
      number: expect.stringMatching(/^ST-\d{4}$/),
      title: 'Cleaning of Line 1',
      studyType: 'Validation',
      protocolId: protocol.id,
      protocolVersionNumber: 1,
      protocolName: protocol.name,
      limitsSnapshotId: snapshot,
      origin: { kind: 'none', id: null, label: null },
      outcome: 'On Going',
      requiredPasses: 4,
      consecutivePasses: 0,
      runCount: 0,
      closedAt: null,
      controlled: { status: 'BeingBuilt', versionNumber: 1, version: 1 },
    });
    expect(Number(second.number.slice(3))).toBe(Number(first.number.slice(3)) + 1);
    const [row] = await t.server.db.query<{ protocol_content: Body }>(
      'select protocol_content from studies where id = $1',
      [first.id],
    );
    expect(row!.protocol_content.name).toBe(protocol.name);
    const audit = await lastAudit(first.id);
    expect(audit).toMatchObject({
      action: 'Create',
      new_values: { number: first.number, protocolVersionNumber: 1, limitsSnapshotId: snapshot },
    });
  });

  it("pins the protocol's own limits snapshot when it names one", async () => {
    const own = await kit.snapshot();
    await kit.snapshot(); // a later one: the protocol's is kept all the same
    const protocol = await kit.approvedProtocol({ limitsSnapshotId: own });
    const study = await kit.study(protocol.id);
    expect(study.limitsSnapshotId).toBe(own);
    // Shown by the approval it was taken at, never its id (issue 30).
    expect(study.limitsSnapshotName).toMatch(/^Limits approved with .+ \(version \d+\)$/);
  });
});

describe('reading, editing and closing', () => {
  it('lists a page, filtered by outcome, type and search', async () => {
    const protocol = await kit.approvedProtocol();
    const study = await kit.study(protocol.id, {
      title: 'Periodic check of Line 1',
      studyType: 'Periodic Verification',
    });
    const page = await t.call('GET', `${t.F}/studies?studyType=Periodic%20Verification`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 1, pageNumber: 1, pageLimit: 10 });
    expect(page.body.data[0].id).toBe(study.id);
    const searched = await t.call('GET', `${t.F}/studies?search=${study.number}`);
    expect(searched.body.data.map((s: Body) => s.id)).toEqual([study.id]);
    const failed = await t.call('GET', `${t.F}/studies?outcome=Failed&search=Periodic`);
    expect(failed.body.total).toBe(0);
    const one = await t.call('GET', `${t.F}/studies/${study.id}`);
    expect(one.body.id).toBe(study.id);
    expect((await t.call('GET', `${t.F}/studies/999999`)).status).toBe(404);
  });

  it('edits the header with reason and version, and refuses a stale version', async () => {
    const study = await kit.study((await kit.approvedProtocol()).id);
    const stale = await t.call('POST', `${t.F}/studies/${study.id}`, {
      title: 'New title',
      reason: 'Clearer',
      version: 99,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errName).toBe('VersionConflictError');
    const res = await t.call('POST', `${t.F}/studies/${study.id}`, {
      title: 'New title',
      reason: 'Clearer',
      version: study.controlled.version,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ title: 'New title', controlled: { version: 2 } });
    expect(await lastAudit(study.id)).toMatchObject({
      action: 'Update',
      reason: 'Clearer',
      old_values: { title: 'Cleaning of Line 1' },
      new_values: { title: 'New title' },
    });
    const [version] = await t.server.db.query<{ content: Body }>(
      `select content from controlled_versions where document_type = 'Study' and document_id = $1`,
      [study.id],
    );
    expect(version!.content).toMatchObject({ number: study.number, title: 'New title' });
  });

  it('closes a study that has not validated as Failed, once', async () => {
    const study = await kit.study((await kit.approvedProtocol()).id);
    const res = await t.call('POST', `${t.F}/studies/${study.id}/close`, {
      reason: 'Line decommissioned',
      version: study.controlled.version,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ outcome: 'Failed', closeReason: 'Line decommissioned' });
    expect(res.body.closedAt).not.toBeNull();
    expect(await lastAudit(study.id)).toMatchObject({
      action: 'Close',
      reason: 'Line decommissioned',
      old_values: { outcome: 'On Going' },
      new_values: { outcome: 'Failed' },
    });
    const again = await t.call('POST', `${t.F}/studies/${study.id}/close`, {
      reason: 'Again',
      version: res.body.controlled.version,
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`${study.number} is closed`);
    const edit = await t.call('POST', `${t.F}/studies/${study.id}`, {
      title: 'Later',
      reason: 'Late',
      version: res.body.controlled.version,
    });
    expect(edit.status).toBe(409);
  });

  it('keeps a Validated study Validated when it is closed', async () => {
    const study = await kit.study((await kit.approvedProtocol()).id);
    // The runs helper's refresh stores the outcome; here the stored value stands in for it.
    await t.server.db.query(
      `update studies set outcome = 'Validated', consecutive_passes = 3 where id = $1`,
      [study.id],
    );
    const res = await t.call('POST', `${t.F}/studies/${study.id}/close`, {
      reason: 'Done',
      version: study.controlled.version,
    });
    expect(res.body).toMatchObject({ outcome: 'Validated', consecutivePasses: 3 });
  });
});

describe('permissions', () => {
  it('needs QualificationTask Get to read, Add to create and Modify to edit or close', async () => {
    const study = await kit.study((await kit.approvedProtocol()).id);
    const none = await person({ CleaningProcedure: ['Get'] });
    const reader = await person({ QualificationTask: ['Get'] });
    expect((await t.call('GET', `${t.F}/studies`, undefined, none)).status).toBe(403);
    expect((await t.call('GET', `${t.F}/studies/${study.id}`, undefined, none)).status).toBe(403);
    expect((await t.call('GET', `${t.F}/studies`, undefined, reader)).status).toBe(200);
    const create = await t.call(
      'POST',
      `${t.F}/studies`,
      { title: 'X', studyType: 'Validation', protocolId: study.protocolId },
      reader,
    );
    expect(create.status).toBe(403);
    const body = { reason: 'R', version: study.controlled.version };
    expect((await t.call('POST', `${t.F}/studies/${study.id}`, body, reader)).status).toBe(403);
    const close = await t.call('POST', `${t.F}/studies/${study.id}/close`, body, reader);
    expect(close.status).toBe(403);
  });
});
