import { analyticalMethodsDef } from '#core/entities/defs/cleaning.def.ts';
import type { TRun } from '#core/schemas/verification.schemas.ts';
import { runCleaningAssessment } from '#server/modules/cleaning-assessments/cleaning-assessment.job.ts';
import { startAssessment } from '#server/modules/cleaning-assessments/cleaning-assessments.service.ts';
import { startReport } from '#server/modules/reports/reports.service.ts';
import { openInvestigation } from '#server/modules/verification/runs/investigations.service.ts';
import { enterResults } from '#server/modules/verification/runs/results.ts';
import { getRun } from '#server/modules/verification/runs/runs.read.ts';
import { buildChangeAssessment } from '#server/test/factories/change-assessments.ts';
import { buildDeviation, closeDeviation } from '#server/test/factories/deviations.ts';
import { buildEntity, type FactoryScope } from '#server/test/factories/entities.ts';
import {
  buildOperator,
  buildSamplingLocations,
  samplingTypeId,
} from '#server/test/factories/sampling.ts';
import { signIntoForce, type FactoryServer } from '#server/test/factories/signed-record.ts';
import {
  buildApprovedProtocol,
  buildRun,
  buildStudy,
} from '#server/test/factories/verification.ts';
import { demoActor, type DemoPeople } from './demo-people.ts';

/*
 * The lifecycle of the demo facility, after its master data: every record written by the
 * service its own route calls (the factories in server/test/factories are those calls with the
 * routes' bodies), by the person whose job it is, and every controlled record put in force by
 * real signatures, so the audit trail and the signature manifests are those of a real site.
 */

export interface DemoMasterData {
  equipment: { id: number; name: string; material: string }[];
  productions: { id: number; name: string; equipmentIds: number[]; productIds: number[] }[];
  /** The lowest PDE (mg/day) among each product's actives: the toxicity worst case. */
  productPde: Map<number, number>;
  productName: Map<number, string>;
}

/**
 * The method the demo's swabs are analysed with, made by the validation engineer with the
 * story: its LOD and LOQ are stated per swab, so it shows every swab limit of the demo plant (a
 * limit below the LOQ cannot be verified). The master data alone (seedDemo) keeps its three.
 */
const SWAB_METHOD = {
  name: 'TOC direct swab method',
  methodNumber: 'AM-TOC-02',
  testType: 'TOC',
  lod: { value: 0.005, unit: 'ug/swab' },
  loq: { value: 0.015, unit: 'ug/swab' },
  recoveries: [
    { material: 'Stainless steel 316L', recoveryPercentage: 88 },
    { material: 'Stainless steel 304', recoveryPercentage: 86 },
    { material: 'PTFE', recoveryPercentage: 76 },
    { material: 'Glass', recoveryPercentage: 92 },
  ],
};

/** The spots swabbed on each kind of equipment: the hard-to-clean ones first (risk-assessed). */
const LOCATIONS_BY_KIND: Record<string, [string, string]> = {
  'High-shear granulator': ['Impeller shaft seal', 'Chopper blade'],
  'Fluid bed dryer': ['Filter bag housing', 'Product bowl wall'],
  'Conical mill': ['Screen', 'Impeller'],
  'Bin blender': ['Discharge valve', 'Lid gasket'],
  'Tablet press': ['Feed frame', 'Punch tips'],
  'Coating pan': ['Spray gun nozzle', 'Baffles'],
  'Capsule filler': ['Dosing disc', 'Tamping pins'],
  'Vibratory sieve': ['Mesh screen', 'Outlet chute'],
  'Intermediate bulk container': ['Butterfly valve', 'Inner wall'],
  'Transfer hopper': ['Outlet', 'Inner wall'],
};

const kindOf = (name: string) => name.replace(/ \d+$/, '');
const LOCATION_MATERIALS = new Set([
  'Stainless steel 316L',
  'Stainless steel 304',
  'Glass',
  'PTFE',
]);

/** The dates of the demo runs: the autumn of 2026, before the seed. */
const day = (month: number, date: number, hour = 8) =>
  new Date(Date.UTC(2026, month - 1, date, hour)).toISOString();

export async function tellDemoStory(
  server: FactoryServer,
  scope: FactoryScope,
  people: DemoPeople,
  master: DemoMasterData,
): Promise<{ counts: Record<string, number>; told: DemoStoryTold }> {
  const { db } = server;
  const engineer = demoActor(people.engineer);
  const approvers = { submitter: people.engineer, approver: people.approver };

  // Every item gets its sampling locations, written by the validation engineer.
  const swab = await samplingTypeId(db, scope.facilityId, 'Swab');
  const firstLocation = new Map<number, number>();
  let locations = 0;
  for (const item of master.equipment) {
    const names = LOCATIONS_BY_KIND[kindOf(item.name)] ?? [
      'Hard-to-clean spot',
      'Product-contact wall',
    ];
    const material = LOCATION_MATERIALS.has(item.material) ? item.material : 'Stainless steel 316L';
    const made = await buildSamplingLocations(
      db,
      scope,
      item.id,
      names.map((name) => ({
        name,
        sampleType: 'swab' as const,
        samplingTypeId: swab,
        material: material as 'Stainless steel 316L',
      })),
      { actor: engineer, reason: 'Sampling locations from the equipment risk assessment' },
    );
    firstLocation.set(item.id, made[0]!.id);
    locations += made.length;
  }

  const swabMethod = await buildEntity(db, scope, analyticalMethodsDef, SWAB_METHOD, engineer);

  // An approved change: a larger minimum batch on the first line's first product. Its approval
  // applies the change and stores the limits snapshot the protocols' acceptance criteria use.
  const [firstLine] = master.productions;
  const changed = firstLine!.productIds[0]!;
  const change = await buildChangeAssessment(server, scope, {
    actor: engineer,
    fields: {
      title: `Larger minimum batch of ${master.productName.get(changed)}`,
      changeType: 'Other',
    },
    changes: [
      {
        op: 'update',
        entity: 'products',
        recordId: changed,
        values: { minBatchSize: { value: 400, unit: 'kg' } },
      },
    ],
    decideAll: true,
    signers: approvers,
  });

  // A worst-case protocol per line: the product with the most toxic active (lowest PDE) stands
  // for the line (bracketing, EU GMP Annex 15 §10.12), sampled at each item's hard-to-clean spot.
  const protocols = new Map<number, number>();
  for (const [index, line] of master.productions.entries()) {
    const worst = [...line.productIds].sort(
      (a, b) => (master.productPde.get(a) ?? Infinity) - (master.productPde.get(b) ?? Infinity),
    )[0]!;
    const protocol = await buildApprovedProtocol(
      server,
      scope,
      {
        protocolNumber: `CVP-${String(index + 1).padStart(3, '0')}`,
        name: `Cleaning validation of ${line.name}: worst case ${master.productName.get(worst)}`,
        studyType: 'Validation',
        productionId: line.id,
        equipmentIds: line.equipmentIds,
        productIds: [worst],
        samplingPlan: line.equipmentIds.map((id) => ({
          samplingLocationId: firstLocation.get(id)!,
          sampleType: 'swab',
          analyticalMethodId: swabMethod.id,
        })),
        dirtyHoldMaxHours: 48,
        cleanHoldMaxHours: 72,
        requiredPasses: 3,
      },
      approvers,
    );
    protocols.set(line.id, protocol.id);
  }

  const operators = [
    await buildOperator(
      db,
      scope,
      { firstName: 'Olga', lastName: 'Novak', operatorId: 'OP-101' },
      engineer,
    ),
    await buildOperator(
      db,
      scope,
      { firstName: 'Marco', lastName: 'Rossi', operatorId: 'OP-102' },
      engineer,
    ),
  ];
  const [line1, line2, line3] = master.productions;
  const counts = { runs: 0, results: 0 };

  /**
   * A run as a site records it: the operator's cleaning event and visual inspection, the
   * analyst's results (each `times` × its limit, or censored at the method's LOQ/LOD), then
   * submitted by the operator and approved by QA unless `finish` is false.
   */
  async function run(
    studyId: number,
    startedAt: string,
    times: (index: number) => number | '< LOQ' | '< LOD',
    finish = true,
  ): Promise<TRun> {
    const made = await buildRun(server, scope, studyId, {
      actor: demoActor(people.operator),
      event: {
        startedAt,
        endedAt: new Date(Date.parse(startedAt) + 3 * 3_600_000).toISOString(),
        operatorIds: operators.map((o) => o.id),
        dirtyHoldHours: 6,
        cleanHoldHours: 12,
      },
      inspection: {},
    });
    const rows = made.plan.map((planned, index) => {
      const factor = times(index);
      const censored = typeof factor === 'string';
      const raw = censored
        ? ((factor === '< LOQ' ? planned.loq : planned.lod) ?? 0)
        : (planned.limit ?? 0) * factor;
      return {
        key: `r${index}`,
        samplingLocationId: planned.samplingLocationId,
        sampleType: planned.sampleType,
        analyticalMethodId: planned.analyticalMethodId,
        batchNumber: `S-${made.id}-${index + 1}`,
        censoring: censored ? factor : ('=' as const),
        rawValue: Number(raw.toPrecision(4)),
        unit: planned.limitUnit,
        takenAt: new Date(Date.parse(startedAt) + 4 * 3_600_000).toISOString(),
      };
    });
    await enterResults(db, demoActor(people.analyst), scope, made.id, rows);
    counts.runs += 1;
    counts.results += rows.length;
    if (finish)
      await signIntoForce(
        server,
        scope,
        { documentType: 'Run', documentId: made.id },
        { submitter: people.operator, approver: people.approver },
      );
    return getRun(db, scope.facilityId, made.id);
  }

  const study = (line: { id: number; name: string }, studyType: string, title: string) =>
    buildStudy(server, scope, { title, studyType, protocolId: protocols.get(line.id)! }, engineer);

  // Line 1 validated: three consecutive passing runs, with results below the LOQ and the LOD.
  const validated = await study(line1!, 'Validation', `Cleaning validation of ${line1!.name}`);
  let lastRunId = 0;
  for (const [n, month] of [9, 10, 11].entries()) {
    const done = await run(validated.id, day(month, 3 + n), (i) =>
      i % 4 === 0 ? '< LOQ' : i % 4 === 1 ? '< LOD' : 0.08 + 0.05 * ((i + n) % 5),
    );
    lastRunId = done.id;
  }

  // Line 2: a passing run, then a failure at one location, investigated in the laboratory
  // (phase I: no assignable cause, the OOS stands) and closed as a process deviation by QA.
  const failing = await study(line2!, 'Validation', `Cleaning validation of ${line2!.name}`);
  await run(failing.id, day(10, 14), (i) => 0.1 + 0.04 * (i % 6));
  const failed = await run(failing.id, day(11, 4), (i) => (i === 0 ? 1.6 : 0.2 + 0.03 * i), false);
  const oos = failed.results.find((result) => result.judgement.passed === false)!;
  const analyst = demoActor(people.analyst);
  const investigationId = await openInvestigation(db, analyst, scope, oos.id, {
    findings:
      'Standard, calculation and instrument checked; the retained swab extract re-injected gave the same value.',
    outcome: 'confirmed',
    conclusion: 'No assignable laboratory cause: the out-of-specification result is confirmed.',
    reason: 'Result above its limit',
  });
  await signIntoForce(
    server,
    scope,
    { documentType: 'Investigation', documentId: investigationId },
    { submitter: people.analyst, approver: people.approver },
  );
  const deviation = await buildDeviation(
    server,
    scope,
    failed.id,
    {
      kind: 'process',
      resultId: oos.id,
      title: `Residue above limit at ${oos.samplingLocationName}`,
      description: 'Confirmed out-of-specification swab result after cleaning.',
      capaReference: 'CAPA-2026-017',
    },
    engineer,
  );
  await closeDeviation(server, scope, deviation, {
    found: {
      rootCause: 'Rinse time of the cleaning cycle too short for the discharge area.',
      conclusion:
        'Cleaning procedure revised with a longer final rinse; the run is counted as failed.',
    },
    actor: engineer,
    signers: approvers,
  });
  await signIntoForce(
    server,
    scope,
    { documentType: 'Run', documentId: failed.id },
    { submitter: people.operator, approver: people.approver },
  );

  // Line 3: ongoing verification after validation, one run so far.
  const verification = await study(
    line3!,
    'Verification',
    `Routine verification of ${line3!.name}`,
  );
  await run(verification.id, day(11, 20), (i) => (i % 3 === 0 ? '< LOQ' : 0.05 + 0.02 * i));

  return {
    counts: {
      samplingLocations: locations,
      changeAssessments: 1,
      protocols: protocols.size,
      studies: 3,
      runs: counts.runs,
      results: counts.results,
      investigations: 1,
      deviations: 1,
      operators: operators.length,
      analyticalMethods: 1,
    },
    told: {
      changeAssessmentId: change.id,
      studyId: validated.id,
      runId: lastRunId,
      lineId: line1!.id,
    },
  };
}

export interface DemoStoryTold {
  changeAssessmentId: number;
  studyId: number;
  runId: number;
  lineId: number;
}

/**
 * What reads the facility as of a moment, after the story is committed (record versions are kept
 * as a transaction commits): the facility-wide cleaning assessment, computed now by the seed
 * itself (no job) and approved by QA, and the reports, queued as jobs for the server's worker
 * (they complete at the server's next start when the seed runs alone).
 */
export async function finishDemoStory(
  server: FactoryServer,
  scope: FactoryScope,
  people: DemoPeople,
  told: DemoStoryTold,
): Promise<Record<string, number>> {
  const { db } = server;
  const engineer = demoActor(people.engineer);
  const assessment = await startAssessment(
    db,
    engineer,
    scope,
    'First facility-wide assessment of the demo plant',
    async () => null,
  );
  await runCleaningAssessment(db, assessment.id);
  await signIntoForce(
    server,
    scope,
    { documentType: 'CleaningAssessment', documentId: assessment.id },
    { submitter: people.engineer, approver: people.approver },
  );
  const reports = [
    { kind: 'worst-case-ranking' },
    { kind: 'production-limits', productionId: told.lineId, variant: 'chemical' },
    { kind: 'study', studyId: told.studyId },
    { kind: 'run', runId: told.runId },
    { kind: 'change-assessment', changeAssessmentId: told.changeAssessmentId },
    { kind: 'cleaning-assessment', cleaningAssessmentId: assessment.id },
  ] as const;
  for (const parameters of reports) await startReport(db, engineer, scope, parameters);
  return { cleaningAssessments: 1, reports: reports.length };
}
