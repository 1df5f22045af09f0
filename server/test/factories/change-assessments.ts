import {
  ZChangeAssessmentCreate,
  ZDecisionsBody,
  ZStagedChangeBody,
  type TChangeAssessment,
} from '#core/schemas/change-assessments.schemas.ts';
import type { Actor } from '#server/db/audit-write.ts';
import type { z } from 'zod';
import { evaluatedItems } from '#server/modules/change-assessments/change-assessments.read.ts';
import {
  createChangeAssessment,
  decide,
  stageChange,
} from '#server/modules/change-assessments/change-assessments.service.ts';
import { evaluateChangeAssessment } from '#server/modules/change-assessments/change-evaluate.ts';
import { getChangeAssessment } from '#server/modules/change-assessments/change-assessments.read.ts';
import { testActor } from '../factories.ts';
import { uniqueName, type FactoryScope } from './entities.ts';
import { signIntoForce, type FactoryServer, type Signers } from './signed-record.ts';

/*
 * Change assessments through the module's own services, with the bodies its routes read: created,
 * its changes staged (each tried on the real write path and rolled back), evaluated, every impact
 * item decided, and approved by real signatures (which applies the change set), as asked.
 */

/** A change as POST change-assessments/{id}/changes takes it, without the reason and version. */
export type StagedChange = Omit<z.input<typeof ZStagedChangeBody>, 'reason' | 'version'>;

export interface ChangeAssessmentSteps {
  /** Who writes it (testActor unless given). */
  actor?: Actor;
  /** Its title and change type (the body of POST change-assessments). */
  fields?: Partial<z.input<typeof ZChangeAssessmentCreate>>;
  /** Staged in order, each with the reason 'Planned change'. */
  changes?: StagedChange[];
  /** Evaluated after staging. */
  evaluate?: boolean;
  /** Every impact item of the evaluation decided 'verification', justified (as submit needs). */
  decideAll?: boolean;
  /** Submitted by `signers.submitter` and approved by `signers.approver`: the set is applied. */
  signers?: Partial<Signers>;
}

/** A change assessment taken through the steps asked for; answers it as GET reads it. */
export async function buildChangeAssessment(
  server: FactoryServer,
  scope: FactoryScope,
  steps: ChangeAssessmentSteps = {},
): Promise<TChangeAssessment> {
  const { db } = server;
  const actor = steps.actor ?? testActor;
  const body = ZChangeAssessmentCreate.parse({
    title: uniqueName('Change'),
    changeType: 'Other',
    ...steps.fields,
  });
  let ca = await createChangeAssessment(db, actor, scope, body);
  for (const change of steps.changes ?? []) {
    const staged = { ...change, reason: 'Planned change', version: ca.version };
    ca = await stageChange(db, actor, scope, ca.id, ZStagedChangeBody.parse(staged));
  }
  if (steps.evaluate || steps.decideAll)
    ca = await evaluateChangeAssessment(db, actor, scope, ca.id, { version: ca.version });
  const items = steps.decideAll ? (await evaluatedItems(db, scope.facilityId, ca.id))!.items : [];
  if (items.length > 0) {
    const decisions = items.map((i) => ({
      key: i.key,
      decision: 'verification',
      justification: 'Verify on the next batch',
    }));
    const decided = ZDecisionsBody.parse({ version: ca.version, decisions });
    ca = await decide(db, actor, scope, ca.id, decided);
  }
  if (steps.signers) {
    const ref = { documentType: 'ChangeAssessment', documentId: ca.id } as const;
    await signIntoForce(server, scope, ref, steps.signers);
    ca = await getChangeAssessment(db, scope.facilityId, ca.id);
  }
  return ca;
}
