import { protocolsDef } from '#core/entities/defs/index.ts';
import { ZInspectionInput, type TInspectionInput } from '#core/schemas/run-inspection.schemas.ts';
import {
  ZResultsBody,
  ZRunEdit,
  ZStudyCreate,
  type TRun,
  type TStudy,
} from '#core/schemas/verification.schemas.ts';
import type { Actor } from '#server/db/audit-write.ts';
import type { z } from 'zod';
import { recordInspection } from '#server/modules/verification/runs/inspection.ts';
import { enterResults } from '#server/modules/verification/runs/results.ts';
import { getRun, runRow } from '#server/modules/verification/runs/runs.read.ts';
import { createRun, editRun } from '#server/modules/verification/runs/runs.service.ts';
import { createStudy } from '#server/modules/verification/studies/studies.service.ts';
import { testActor } from '../factories.ts';
import { buildEntity, uniqueName, type FactoryScope } from './entities.ts';
import {
  actorFor,
  buildSigners,
  signIntoForce,
  type BuiltSigner,
  type FactoryServer,
  type Signers,
} from './signed-record.ts';

/*
 * Protocols, studies and runs through the app's own writes: the protocol by createEntity and put
 * in force by real signatures, the study and run by their services (createRecord: numbered,
 * audited, working version saved), exactly as their POST routes write them.
 */

/** A protocol, its version 1 being built, written by `author` (the facility's submitter). */
export async function buildProtocol(
  server: FactoryServer,
  scope: FactoryScope,
  overrides: Record<string, unknown> = {},
  author?: BuiltSigner,
) {
  const writer = author ?? (await buildSigners(server.db, scope.facilityId)).submitter;
  return buildEntity(
    server.db,
    scope,
    protocolsDef,
    { protocolNumber: uniqueName('PR'), name: uniqueName('Protocol'), ...overrides },
    actorFor(writer),
  );
}

/**
 * A protocol written and submitted by `signers.submitter` and approved by `signers.approver`
 * (the facility's own unless given) with real signatures: in force for a study.
 */
export async function buildApprovedProtocol(
  server: FactoryServer,
  scope: FactoryScope,
  overrides: Record<string, unknown> = {},
  signers: Partial<Signers> = {},
) {
  const protocol = await buildProtocol(server, scope, overrides, signers.submitter);
  const ref = { documentType: 'Protocol', documentId: protocol.id } as const;
  await signIntoForce(server, scope, ref, signers);
  return protocol;
}

/**
 * A study (the body of POST studies, its defaults as the route reads them): of the given
 * `protocolId`, or of a protocol built and approved for it with `protocol` as its fields.
 */
export async function buildStudy(
  server: FactoryServer,
  scope: FactoryScope,
  overrides: Record<string, unknown> & { protocol?: Record<string, unknown> } = {},
  actor: Actor = testActor,
): Promise<TStudy> {
  const { protocol, ...body } = overrides;
  const protocolId =
    body.protocolId ?? (await buildApprovedProtocol(server, scope, protocol ?? {})).id;
  const request = ZStudyCreate.parse({
    title: uniqueName('Study'),
    studyType: 'Validation',
    ...body,
    protocolId,
  });
  return createStudy(server.db, actor, scope, request);
}

type TRunEdit = z.input<typeof ZRunEdit>;

export interface RunSteps {
  /** Who writes the run, its event, inspection and results (testActor unless given). */
  actor?: Actor;
  /** The cleaning event, as POST runs/{id} takes it without reason and version: starts the run. */
  event?: Omit<TRunEdit, 'reason' | 'version'>;
  /**
   * The visual inspection after the event, as POST runs/{id}/inspection takes it without its
   * version: every item of the pinned checklist Pass at 800 lux unless told otherwise.
   */
  inspection?: Partial<Omit<TInspectionInput, 'version'>>;
  /** Sample results entered next, made from the run as it then reads (its plan's limits). */
  results?: (run: TRun) => unknown[];
  /** Submitted by `submitter` and approved by `approver` with real signatures (Completed). */
  signers?: Partial<Signers>;
}

const lockVersion = async (server: FactoryServer, scope: FactoryScope, id: number) =>
  (await runRow(server.db, scope.facilityId, id)).version;

/**
 * Run N of a study, as POST studies/{id}/runs adds it (Not Started), then, as asked, its cleaning
 * event, visual inspection, results and signatures, each by the run's own service with the body
 * its route would read; answers the run as GET runs/{id} reads it.
 */
export async function buildRun(
  server: FactoryServer,
  scope: FactoryScope,
  studyId: number,
  steps: RunSteps = {},
): Promise<TRun> {
  const actor = steps.actor ?? testActor;
  const id = await createRun(server.db, actor, scope, studyId, undefined);
  if (steps.event) {
    const version = await lockVersion(server, scope, id);
    const body = ZRunEdit.parse({ reason: 'Cleaning recorded', version, ...steps.event });
    await editRun(server.db, actor, scope, id, body);
  }
  if (steps.inspection) {
    const run = await getRun(server.db, scope.facilityId, id);
    const checklist = run.inspection.settings?.checklist ?? [];
    const body = ZInspectionInput.parse({
      lightLux: 800,
      checklist: checklist.map(() => ({ answer: 'Pass' })),
      result: 'Pass',
      ...steps.inspection,
      version: run.version,
    });
    await recordInspection(server.db, actor, scope, id, body);
  }
  if (steps.results) {
    const run = await getRun(server.db, scope.facilityId, id);
    const body = ZResultsBody.parse({ results: steps.results(run) });
    await enterResults(server.db, actor, scope, id, body.results);
  }
  if (steps.signers)
    await signIntoForce(server, scope, { documentType: 'Run', documentId: id }, steps.signers);
  return getRun(server.db, scope.facilityId, id);
}
