import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { changeAssessmentKit } from '#server/test/change-assessment-kit.ts';
import { adminEditor, policyApprover } from '#server/test/policy-in-force.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';

/*
 * The change set while it is built: edits and unstaging of staged changes (each drops the
 * evaluation's currency), the impact and its pairs, decisions on unknown items, a rejection that
 * returns the assessment to editing, and a restore applied on approval.
 */

const t = useFacilityTestServer();
let here: MacFacility;
beforeAll(async () => {
  here = await buildMacFacility(t.server, t.facilityId);
});

const CA = '/change-assessments';
const call = (method: string, path: string, body?: unknown, as?: string) =>
  t.call(method, `${here.F}${path}`, body, as);
const ok = (res: { status: number; body: Body }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.changeAssessment as Body;
};
const idOf = async (path: string, name: string) => {
  const res = await call('GET', `/${path}?search=${name}&pageLimit=100`);
  return (res.body.data as Body[]).find((r) => r.name === name)!.id as number;
};
const kit = changeAssessmentKit(call);
const sign = (id: number, action: string, as = adminEditor(t.token), reason?: string) =>
  kit.sign(id, action, as, reason);

describe('the change set while it is built', () => {
  it('edits and unstages changes; each makes the evaluation stale', async () => {
    let ca = ok(await call('POST', CA, { title: 'Edits', changeType: 'Other' }));
    const b = await idOf('products', 'B');
    ca = ok(
      await call('POST', `${CA}/${ca.id}/changes`, {
        op: 'update',
        entity: 'products',
        recordId: b,
        values: { minBatchSize: { value: 150, unit: 'kg' } },
        reason: 'More',
        version: ca.version,
      }),
    );
    ca = ok(await call('POST', `${CA}/${ca.id}/evaluate`, { version: ca.version }));
    expect(ca.changeStatus).toBe('Pending Approval');

    const impact = await call('GET', `${CA}/${ca.id}/impact?pageLimit=1000`);
    expect(impact.status).toBe(200);
    expect(impact.body.total).toBe(impact.body.items.length);
    expect(impact.body.items.length).toBeGreaterThan(0);
    expect(impact.body.items.every((i: Body) => i.decision === null)).toBe(true);
    const pairs = await call('GET', `${CA}/${ca.id}/impact/pairs?pageLimit=1000`);
    expect(pairs.status).toBe(200);
    expect(pairs.body.total).toBeGreaterThan(0);
    expect(pairs.body.pairs.some((p: Body) => p.next === 'B')).toBe(true);
    const previous = pairs.body.pairs[0].previous as string;
    const ofOne = await call('GET', `${CA}/${ca.id}/impact/pairs?previous=${previous}`);
    expect(ofOne.body.total).toBeGreaterThan(0);
    expect(ofOne.body.pairs.every((p: Body) => p.previous === previous)).toBe(true);

    const unknown = await call('POST', `${CA}/${ca.id}/decisions`, {
      version: ca.version,
      decisions: [{ key: 'limitsMoved:Nobody', decision: 'noAction', justification: 'x' }],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].property).toBe('decisions[0].key');
    const first = impact.body.items[0] as Body;
    ca = ok(
      await call('POST', `${CA}/${ca.id}/decisions`, {
        version: ca.version,
        decisions: [{ key: first.key, decision: 'noAction', justification: 'Within margin' }],
      }),
    );
    const decided = await call('GET', `${CA}/${ca.id}/impact?undecided=true&pageLimit=1000`);
    expect(decided.body.items.map((i: Body) => i.key)).not.toContain(first.key);

    const changeId = ca.changes[0].id as number;
    expect(ca.changes[0].editedAt).toBeNull();
    const stagedAt = ca.changes[0].stagedAt as string;
    ca = ok(
      await call('POST', `${CA}/${ca.id}/changes/${changeId}`, {
        values: { minBatchSize: { value: 160, unit: 'kg' } },
        reason: 'Even more',
        version: ca.version,
      }),
    );
    expect(ca.changes[0]).toMatchObject({ values: { minBatchSize: { value: 160, unit: 'kg' } } });
    // The edit says when it was made; when it was staged stays.
    expect(ca.changes[0].stagedAt).toBe(stagedAt);
    expect(Date.parse(ca.changes[0].editedAt as string)).toBeGreaterThan(Date.parse(stagedAt));
    expect(ca).toMatchObject({ changeStatus: 'Not Evaluated', evaluation: { current: false } });
    const stale = await call('POST', `${CA}/${ca.id}/evaluate`, { version: ca.version - 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.errName).toBe('VersionConflictError');

    // A refused edit of a staged change leaves it as it was.
    const bad = await call('POST', `${CA}/${ca.id}/changes/${changeId}`, {
      values: { minBatchSize: { value: 0, unit: 'kg' } },
      reason: 'Zero',
      version: ca.version,
    });
    expect(bad.status).toBe(422);

    ca = ok(
      await call(
        'DELETE',
        `${CA}/${ca.id}/changes/${changeId}?reason=${encodeURIComponent('Not needed')}&version=${ca.version}`,
      ),
    );
    expect(ca.changes).toEqual([]);
    expect((await sign(ca.id, 'Submit')).status).toBe(409);
    const [row] = await t.server.db.query<{ n: number }>(
      `select count(*)::int as n from audit_log where domain = 'ChangeAssessment' and entity_id = $1`,
      [String(ca.id)],
    );
    // Create, Stage, Evaluate, Decide, StageEdit, Unstage.
    expect(row!.n).toBe(6);
  });

  it('returns to editing when rejected, and applies a restore on approval', async () => {
    const d = await idOf('products', 'D');
    const archived = await call('PUT', `/products/${d}/archive`, {
      reason: 'Discontinued',
      confirmImpact: true,
    });
    expect(archived.status).toBe(200);
    let ca = ok(await call('POST', CA, { title: 'Bring D back', changeType: 'New product' }));
    ca = ok(
      await call('POST', `${CA}/${ca.id}/changes`, {
        op: 'restore',
        entity: 'products',
        recordId: d,
        reason: 'D is made again',
        version: ca.version,
      }),
    );
    expect(ca.changes[0].label).toBe("Product 'D': restore");
    ca = ok(await call('POST', `${CA}/${ca.id}/evaluate`, { version: ca.version }));
    const items = (await call('GET', `${CA}/${ca.id}/impact?pageLimit=1000`)).body.items as Body[];
    if (items.length)
      ca = ok(
        await call('POST', `${CA}/${ca.id}/decisions`, {
          version: ca.version,
          decisions: items.map((i) => ({
            key: i.key,
            decision: 'newProductStudy',
            justification: 'Study on return',
          })),
        }),
      );
    expect((await sign(ca.id, 'Submit')).status).toBe(200);
    const approver = await policyApprover(t.server, here.F);
    const rejected = await sign(ca.id, 'Reject', approver, 'Add the study plan');
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    ca = (await call('GET', `${CA}/${ca.id}`)).body.changeAssessment;
    expect(ca).toMatchObject({ status: 'BeingBuilt', changeStatus: 'Pending Approval' });
    ca = ok(
      await call('POST', `${CA}/${ca.id}`, {
        title: 'Bring D back (study plan attached)',
        changeType: 'New product',
        reason: 'Study plan',
        version: ca.version,
      }),
    );
    expect((await sign(ca.id, 'Submit')).status).toBe(200);
    expect((await sign(ca.id, 'Approve', approver)).status).toBe(200);
    expect((await call('GET', `/products/${d}`)).body.archivedAt).toBeNull();
  });
});

describe('the list and its permissions', () => {
  it('filters by changeStatus; reading needs Get and writing Generate', async () => {
    const ca = ok(await call('POST', CA, { title: 'Listed', changeType: 'Other' }));
    const notEvaluated = await call('GET', `${CA}?changeStatus=Not%20Evaluated&pageLimit=1000`);
    expect(notEvaluated.body.changeAssessments.map((c: Body) => c.id)).toContain(ca.id);
    expect(
      notEvaluated.body.changeAssessments.every((c: Body) => c.changeStatus === 'Not Evaluated'),
    ).toBe(true);
    const cancelled = await call('GET', `${CA}?changeStatus=Cancelled&pageLimit=1000`);
    expect(cancelled.body.changeAssessments.map((c: Body) => c.id)).not.toContain(ca.id);

    const reader = await buildUser(t.server.db, {
      facilityIds: [here.facilityId],
      permissions: permissionsWith({ FacilityCleaningEvaluation: ['Get'] }),
    });
    const token = await t.server.login(reader.username, reader.password);
    expect((await call('GET', `${CA}/${ca.id}`, undefined, token)).status).toBe(200);
    expect((await call('POST', CA, { title: 'x', changeType: 'Other' }, token)).status).toBe(403);
    expect(
      (await call('POST', `${CA}/${ca.id}/evaluate`, { version: ca.version }, token)).status,
    ).toBe(403);
    const nobody = await buildUser(t.server.db, {
      facilityIds: [here.facilityId],
      permissions: permissionsWith({ Product: ['Get'] }),
    });
    const other = await t.server.login(nobody.username, nobody.password);
    expect((await call('GET', CA, undefined, other)).status).toBe(403);
  });
});

describe('the impact exports', () => {
  it('downloads the latest evaluation as xlsx and PDF, each export audited; none before it', async () => {
    let ca = ok(await call('POST', CA, { title: 'Exported', changeType: 'Other' }));
    const download = (format: string) =>
      fetch(`${t.server.url}${here.F}${CA}/${ca.id}/impact/${format}`, {
        headers: { token: t.token },
      });
    expect((await download('xlsx')).status).toBe(409);
    ca = ok(
      await call('POST', `${CA}/${ca.id}/changes`, {
        op: 'update',
        entity: 'products',
        recordId: await idOf('products', 'C'),
        values: { minBatchSize: { value: 40, unit: 'kg' } },
        reason: 'Bigger batches',
        version: ca.version,
      }),
    );
    ca = ok(await call('POST', `${CA}/${ca.id}/evaluate`, { version: ca.version }));
    const xlsx = await download('xlsx');
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
    expect(xlsx.headers.get('content-disposition')).toContain(`${ca.number} Impact`);
    const zip = Buffer.from(await xlsx.arrayBuffer());
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    const pdf = await download('pdf');
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const rows = await t.server.db.query<{ format: string }>(
      `select new_values->>'format' as format from audit_log
        where domain = 'ChangeAssessment' and action = 'Export' and entity_id = $1 order by id`,
      [String(ca.id)],
    );
    expect(rows.map((r) => r.format)).toEqual(['xlsx', 'pdf']);
  });
});

describe('a stale staged change', () => {
  it('is shown as not current and refuses the evaluation until it is edited again', async () => {
    let ca = ok(await call('POST', CA, { title: 'Stale evaluate', changeType: 'Other' }));
    const a = await idOf('products', 'A');
    ca = ok(
      await call('POST', `${CA}/${ca.id}/changes`, {
        op: 'update',
        entity: 'products',
        recordId: a,
        values: { minBatchSize: { value: 55, unit: 'kg' } },
        reason: 'Bigger',
        version: ca.version,
      }),
    );
    const product = await call('GET', `/products/${a}`);
    await call('POST', `/products/${a}`, {
      maxDailyDose: { value: 210, unit: 'mg' },
      reason: 'Direct',
      version: product.body.version,
    });
    ca = (await call('GET', `${CA}/${ca.id}`)).body.changeAssessment;
    expect(ca.changes[0].current).toBe(false);
    const refused = await call('POST', `${CA}/${ca.id}/evaluate`, { version: ca.version });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^Change 1 of CA-\d{4} is stale/);
    ca = ok(
      await call('POST', `${CA}/${ca.id}/changes/${ca.changes[0].id}`, {
        values: { minBatchSize: { value: 55, unit: 'kg' } },
        reason: 'Bigger, from the record as it is now',
        version: ca.version,
      }),
    );
    expect(ca.changes[0].current).toBe(true);
    ok(await call('POST', `${CA}/${ca.id}/evaluate`, { version: ca.version }));
  });
});

describe('two changes of one record', () => {
  it('are staged from the same version and applied one over the other', async () => {
    let ca = ok(await call('POST', CA, { title: 'Two edits of B', changeType: 'Other' }));
    const b = await idOf('products', 'B');
    for (const values of [
      { minBatchSize: { value: 120, unit: 'kg' } },
      { maxDailyDose: { value: 420, unit: 'mg' } },
    ])
      ca = ok(
        await call('POST', `${CA}/${ca.id}/changes`, {
          op: 'update',
          entity: 'products',
          recordId: b,
          values,
          reason: 'B changes',
          version: ca.version,
        }),
      );
    expect(ca.changes.map((c: Body) => c.current)).toEqual([true, true]);
    ca = ok(await call('POST', `${CA}/${ca.id}/evaluate`, { version: ca.version }));
    const items = (await call('GET', `${CA}/${ca.id}/impact?pageLimit=1000`)).body.items as Body[];
    if (items.length)
      ca = ok(
        await call('POST', `${CA}/${ca.id}/decisions`, {
          version: ca.version,
          decisions: items.map((i) => ({ key: i.key, decision: 'noAction', justification: 'ok' })),
        }),
      );
    expect((await sign(ca.id, 'Submit')).status).toBe(200);
    const approved = await sign(ca.id, 'Approve', await policyApprover(t.server, here.F));
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect((await call('GET', `/products/${b}`)).body).toMatchObject({
      minBatchSize: { value: 120, unit: 'kg' },
      maxDailyDose: { value: 420, unit: 'mg' },
    });
  });
});

describe('GET change-assessments/{id}/versions', () => {
  it('lists every kept version of the header, oldest first; another id is 404', async () => {
    let ca = ok(await call('POST', CA, { title: 'Versions', changeType: 'Other' }));
    ca = ok(
      await call('POST', `${CA}/${ca.id}`, {
        title: 'Versions, renamed',
        changeType: 'Policy change',
        description: '',
        mocId: null,
        reason: 'Clearer title',
        version: ca.version,
      }),
    );
    const res = await call('GET', `${CA}/${ca.id}/versions`);
    expect(res.status).toBe(200);
    const titles = (res.body.versions as Body[]).map((v) => (v.values as Body).title);
    expect(titles).toEqual(['Versions', 'Versions, renamed']);
    expect((res.body.versions as Body[]).at(-1)!.values).toMatchObject({
      number: ca.number,
      changeType: 'Policy change',
    });
    expect((await call('GET', `${CA}/2147483647/versions`)).status).toBe(404);
  });
});
