import { afterAll, expect } from 'vitest';
import type { FacilityTestFile, TestBody } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { actorFor } from '#server/test/factories/signed-record.ts';
import {
  buildApprovedProtocol,
  buildRun,
  buildStudy,
} from '#server/test/factories/verification.ts';
import { adminEditor, changePolicyInForce, policyApprover } from '#server/test/policy-in-force.ts';
import { buildMacFacility } from '#server/test/mac-test-data.ts';
import { analyticalMethodsDef } from '#core/entities/defs/cleaning.def.ts';
import { adminActor, adminSigner } from '#server/test/factories/admin.ts';
import { closeDeviation as closeDeviationOf } from '#server/test/factories/deviations.ts';
import { buildEntity } from '#server/test/factories/entities.ts';
import {
  buildOperator,
  buildSamplingLocations,
  samplingTypeId,
} from '#server/test/factories/sampling.ts';
import { storeLimitsSnapshot } from '#server/modules/policies/policy-approval.ts';
import { runsDisagreeing } from '#server/modules/verification/runs/run-reconcile.ts';

/*
 * A facility for run tests: the small MAC facility (E1 on Line 1 with A and B), two swab
 * locations on E1 (steel, recovered 80 % by the method; PTFE, no recovery of its own), an HPLC
 * method with an LOQ, a limits snapshot, and studies created from approved protocols.
 */

export interface RunFacility {
  steel: number;
  ptfe: number;
  method: number;
  otherMethod: number;
  operator: number;
  snapshotId: number;
  productIds: number[];
}

export { runsDisagreeing };

export function runKit(t: FacilityTestFile) {
  // After every file that builds runs with this kit (the server's afterAll runs after this one).
  afterAll(async () => {
    expect(await runsDisagreeing(t.server.db)).toEqual([]);
  });
  const call = (method: string, path: string, body?: unknown, as?: string) =>
    t.call(method, `${t.F}${path}`, body, as);
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  let seq = 0;
  let facility: RunFacility;

  /**
   * The facility's records, written by the administrator through the app's own writes (the
   * services their POST routes call), not one HTTP call each.
   */
  async function build(): Promise<RunFacility> {
    const mac = await buildMacFacility(t.server, t.facilityId);
    const { db } = t.server;
    const scope = { planId: t.planId, facilityId: t.facilityId };
    const admin = await adminActor(db);
    const swab = await samplingTypeId(db, t.facilityId, 'Swab');
    const e1 = mac.equipment.E1;
    const productIds = [mac.products.A, mac.products.B];
    const locations = await buildSamplingLocations(
      db,
      scope,
      e1,
      [
        {
          name: 'Valve',
          sampleType: 'swab',
          samplingTypeId: swab,
          material: 'Stainless steel 316L',
        },
        { name: 'Gasket', sampleType: 'swab', samplingTypeId: swab, material: 'PTFE' },
      ],
      { actor: admin },
    );
    const method = await buildEntity(
      db,
      scope,
      analyticalMethodsDef,
      {
        name: 'HPLC-1',
        testType: 'TOC',
        // Per swab, well below the smallest value the tests enter (0.1 × the limit): a method
        // fit for these limits. A concentration would need an extraction volume (issue 26).
        loq: { value: 0.001, unit: 'ug/swab' },
        recoveries: [{ material: 'Stainless steel 316L', recoveryPercentage: 80 }],
      },
      admin,
    );
    const other = await buildEntity(
      db,
      scope,
      analyticalMethodsDef,
      { name: 'TOC-2', testType: 'TOC' },
      admin,
    );
    const operator = await buildOperator(db, scope, { operatorId: 'OP-1' }, admin);
    const snapshotId = await t.server.db.transaction((tx) =>
      storeLimitsSnapshot(tx, {
        ref: {
          planId: t.planId,
          facilityId: t.facilityId,
          documentType: 'CleaningInspectionSettings',
          documentId: 1,
        },
        versionNumber: 1,
        content: {},
      }),
    );
    facility = {
      steel: locations[0]!.id,
      ptfe: locations[1]!.id,
      method: method.id,
      otherMethod: other.id,
      operator: operator.id,
      snapshotId,
      productIds,
    };
    return facility;
  }

  /**
   * A study from an approved protocol (written and submitted by the administrator, approved by
   * a second signer, then the study started, all through the app's own writes) with both
   * locations in its plan; returns its id.
   */
  async function study(
    content: Record<string, unknown> = {},
    studyType = 'Validation',
  ): Promise<number> {
    seq += 1;
    const scope = { planId: t.planId, facilityId: t.facilityId };
    const admin = await adminSigner(t.server.db);
    const protocol = await buildApprovedProtocol(
      t.server,
      scope,
      {
        protocolNumber: `PR-${seq}`,
        name: `Protocol ${seq}`,
        productIds: facility.productIds,
        samplingPlan: [
          {
            samplingLocationId: facility.steel,
            sampleType: 'swab',
            analyticalMethodId: facility.method,
          },
          {
            samplingLocationId: facility.ptfe,
            sampleType: 'swab',
            analyticalMethodId: facility.method,
          },
        ],
        dirtyHoldMaxHours: 24,
        cleanHoldMaxHours: 72,
        allowReleaseAtRisk: true,
        limitsSnapshotId: facility.snapshotId,
        ...content,
      },
      { submitter: admin },
    );
    const created = await buildStudy(
      t.server,
      scope,
      { title: `Study ${seq}`, studyType, protocolId: protocol.id },
      actorFor(admin),
    );
    expect(created.limitsSnapshotId).toBe(content.limitsSnapshotId ?? facility.snapshotId);
    return created.id;
  }

  const newRun = async (studyId: number) =>
    (await ok('POST', `/studies/${studyId}/runs`, {})).run as TestBody;
  const event = async (run: TestBody, change: Record<string, unknown>) =>
    (
      await ok('POST', `/runs/${run.id}`, {
        reason: 'Cleaning recorded',
        version: run.version,
        ...change,
      })
    ).run as TestBody;
  /** Records an inspection of a started run (POST runs/{id}/inspection); answers the HTTP result. */
  const inspect = (run: TestBody, change: Record<string, unknown> = {}, as?: string) =>
    call(
      'POST',
      `/runs/${run.id}/inspection`,
      {
        lightLux: 800,
        checklist: (run.inspection.settings.checklist as unknown[]).map(() => ({ answer: 'Pass' })),
        result: 'Pass',
        version: run.version,
        ...change,
      },
      as,
    );
  /** A passing visual inspection by the administrator, every checklist item Pass, at 800 lux. */
  const visualPass = async (run: TestBody, change: Record<string, unknown> = {}) => {
    const res = await inspect(run, change);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.run as TestBody;
  };
  /** Changes the facility's cleaning inspection settings and puts them in force. */
  const inspectionSettings = (change: Record<string, unknown>) =>
    changePolicyInForce(
      t.server,
      t.F,
      'cleaning-inspection-settings',
      { reason: 'Inspection rules revised', ...change },
      adminEditor(t.token),
    );
  /** A second user who may inspect and verify runs (QualificationTask Get and Modify). */
  const secondPerson = async () => {
    const user = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      firstName: 'Vera',
      permissions: permissionsWith({ QualificationTask: ['Get', 'Modify'] }),
    });
    return { ...user, token: await t.server.login(user.username, user.password) };
  };
  let batch = 0;
  /** A result row at a location: `times` × the location's limit, reported as `censoring`. */
  const row = (
    run: TestBody,
    location: number,
    times: number,
    extra: Record<string, unknown> = {},
  ) => {
    const limit = (run.plan as TestBody[]).find((p) => p.samplingLocationId === location)!.limit;
    batch += 1;
    return {
      key: `k${batch}`,
      samplingLocationId: location,
      sampleType: 'swab',
      analyticalMethodId: facility.method,
      batchNumber: `B-${Date.now()}-${batch}`,
      censoring: '=',
      rawValue: limit * times,
      unit: 'mg/swab',
      ...extra,
    };
  };
  const results = (run: TestBody, rows: unknown[]) =>
    call('POST', `/runs/${run.id}/results`, { results: rows });
  const sign = async (run: TestBody, action: string) => {
    const as = action === 'Submit' ? adminEditor(t.token) : await policyApprover(t.server, t.F);
    return call(
      'POST',
      '/signatures',
      { documentType: 'Run', documentId: run.id, action, password: as.password },
      as.token,
    );
  };
  /**
   * Closes a deviation the way a site does: its root cause and conclusion recorded by the
   * administrator, its closure proposed (Submit) by them and approved by the facility's second
   * signer (QA), through the run's own writes and real signatures; answers the run as read.
   */
  async function closeDeviation(
    dev: TestBody,
    found = { rootCause: 'Found', conclusion: 'Concluded' },
  ): Promise<TestBody> {
    const admin = await adminSigner(t.server.db);
    const deviation = dev as Parameters<typeof closeDeviationOf>[2];
    await closeDeviationOf(t.server, { planId: t.planId, facilityId: t.facilityId }, deviation, {
      found,
      actor: actorFor(admin),
      signers: { submitter: admin },
    });
    return (await ok('GET', `/runs/${dev.runId}`)).run as TestBody;
  }
  /**
   * A run of the study started at `startedAt` with a passing visual inspection, written by the
   * administrator through the run's services; answers it as GET runs/{id} reads it.
   */
  async function inspectedRun(studyId: number, startedAt: string): Promise<TestBody> {
    const admin = await adminSigner(t.server.db);
    return buildRun(t.server, { planId: t.planId, facilityId: t.facilityId }, studyId, {
      actor: actorFor(admin),
      event: { startedAt },
      inspection: {},
    });
  }
  /**
   * A run that passes everything, submitted and approved (Completed): its event, a passing
   * visual inspection and results written by the administrator through the run's services,
   * submitted by them and approved by a second signer with real signatures.
   */
  async function completedRun(studyId: number, times = 0.2): Promise<TestBody> {
    const admin = await adminSigner(t.server.db);
    const run = await buildRun(t.server, { planId: t.planId, facilityId: t.facilityId }, studyId, {
      actor: actorFor(admin),
      event: { startedAt: '2026-11-01T08:00:00Z' },
      inspection: {},
      results: (built) => [row(built, facility.steel, times), row(built, facility.ptfe, times)],
      signers: { submitter: admin },
    });
    return (await ok('GET', `/runs/${run.id}`)).run as TestBody;
  }
  const studyRow = async (id: number) =>
    (
      await t.server.db.query<{ outcome: string; consecutive_passes: number }>(
        'select outcome, consecutive_passes from studies where id = $1',
        [id],
      )
    )[0]!;

  /** Closes the study with POST studies/{id}/close. */
  const closeStudy = async (id: number) => {
    const current = await ok('GET', `/studies/${id}`);
    return ok('POST', `/studies/${id}/close`, {
      reason: 'Stopped',
      version: current.controlled.version,
    });
  };

  return {
    call,
    ok,
    build,
    study,
    closeStudy,
    newRun,
    event,
    inspect,
    visualPass,
    inspectionSettings,
    secondPerson,
    row,
    results,
    sign,
    closeDeviation,
    inspectedRun,
    completedRun,
    studyRow,
  };
}
