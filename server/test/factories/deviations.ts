import {
  ZDeviationCreate,
  ZDeviationEdit,
  type TDeviation,
} from '#core/schemas/verification.schemas.ts';
import type { Actor } from '#server/db/audit-write.ts';
import type { z } from 'zod';
import { createDeviation, editDeviation } from '#server/modules/verification/runs/deviations.ts';
import { getRun } from '#server/modules/verification/runs/runs.read.ts';
import { testActor } from '../factories.ts';
import type { FactoryScope } from './entities.ts';
import { signIntoForce, type FactoryServer, type Signers } from './signed-record.ts';

/*
 * Deviations of a run through the run module's own writes, with the body its routes read: raised
 * as POST runs/{id}/deviations raises one, and closed as a site closes one (21 CFR 211.192):
 * its root cause and conclusion recorded, its closure proposed and approved by real signatures.
 */

/** A deviation raised on the run (a process deviation unless told); answers it as its run reads. */
export async function buildDeviation(
  server: FactoryServer,
  scope: FactoryScope,
  runId: number,
  overrides: Partial<z.input<typeof ZDeviationCreate>> = {},
  actor: Actor = testActor,
): Promise<TDeviation> {
  const body = ZDeviationCreate.parse({
    kind: 'process',
    title: 'Residue above limit',
    ...overrides,
  });
  await createDeviation(server.db, actor, scope, runId, body);
  const run = await getRun(server.db, scope.facilityId, runId);
  return run.deviations.at(-1)!;
}

/**
 * Closes the deviation: `found` written by `actor` as POST deviations/{id} writes it (when it
 * differs), then its closure submitted by `signers.submitter` and approved by `signers.approver`
 * (the facility's own signers unless given). Answers the run as GET runs/{id} reads it.
 */
export async function closeDeviation(
  server: FactoryServer,
  scope: FactoryScope,
  deviation: Pick<TDeviation, 'id' | 'runId' | 'version' | 'rootCause' | 'conclusion'>,
  options: {
    found?: { rootCause: string; conclusion: string };
    actor?: Actor;
    signers?: Partial<Signers>;
  } = {},
) {
  const found = options.found ?? { rootCause: 'Found', conclusion: 'Concluded' };
  if (deviation.rootCause !== found.rootCause || deviation.conclusion !== found.conclusion) {
    const body = ZDeviationEdit.parse({
      ...found,
      reason: 'Investigated',
      version: deviation.version,
    });
    await editDeviation(server.db, options.actor ?? testActor, scope, deviation.id, body);
  }
  const ref = { documentType: 'Deviation', documentId: deviation.id } as const;
  await signIntoForce(server, scope, ref, options.signers);
  return getRun(server.db, scope.facilityId, deviation.runId);
}
