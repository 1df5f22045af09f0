import { protocolsDef } from '#core/entities/defs/index.ts';
import { ZStudyCreate, type TStudy } from '#core/schemas/verification.schemas.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { createRun } from '#server/modules/verification/runs/runs.service.ts';
import { createStudy } from '#server/modules/verification/studies/studies.service.ts';
import { testActor } from '../factories.ts';
import { buildEntity, uniqueName, type FactoryScope } from './entities.ts';
import { actorFor, buildSigners, signIntoForce, type FactoryServer } from './signed-record.ts';

/*
 * Protocols, studies and runs through the app's own writes: the protocol by createEntity and put
 * in force by real signatures, the study and run by their services (createRecord: numbered,
 * audited, working version saved), exactly as their POST routes write them.
 */

/** A protocol, its version 1 being built, written by the facility's submitter. */
export async function buildProtocol(
  server: FactoryServer,
  scope: FactoryScope,
  overrides: Record<string, unknown> = {},
) {
  const { submitter } = await buildSigners(server.db, scope.facilityId);
  return buildEntity(
    server.db,
    scope,
    protocolsDef,
    { protocolNumber: uniqueName('PR'), name: uniqueName('Protocol'), ...overrides },
    actorFor(submitter),
  );
}

/** A protocol submitted and approved with real signatures: in force for a study. */
export async function buildApprovedProtocol(
  server: FactoryServer,
  scope: FactoryScope,
  overrides: Record<string, unknown> = {},
) {
  const protocol = await buildProtocol(server, scope, overrides);
  await signIntoForce(server, scope, { documentType: 'Protocol', documentId: protocol.id });
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

/** Run N of a study (Not Started), as POST studies/{id}/runs adds it; answers its id. */
export function buildRun(
  server: FactoryServer,
  scope: FactoryScope,
  studyId: number,
  actor: Actor = testActor,
): Promise<number> {
  return createRun(server.db, actor, scope, studyId, undefined);
}
