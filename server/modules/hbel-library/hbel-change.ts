import { AppError, validationError } from '#core/errors/errors.ts';
import { monographPde } from '#core/hbel/monograph-pde.ts';
import {
  HBEL_LINK_TARGET,
  ZHbelRelinkValues,
  type THbelMonographContent,
} from '#core/schemas/hbel-library.schemas.ts';
import { formatQuantity } from '#core/units/format-number.ts';
import { hasFeature } from '#core/facilities/facility-features.ts';
import { withinTransaction, type Db, type Queryable } from '#server/db/db.ts';
import { facilityKinds } from '#server/db/facility-kind.ts';
import type { ApprovedContext } from '#server/records/controlled.ts';
import { bodyValidationError } from '#server/http/error-handler.ts';
import {
  createChangeAssessment,
  stageChange,
} from '../change-assessments/change-assessments.service.ts';
import { evaluateChangeAssessment } from '../change-assessments/change-evaluate.ts';
import {
  needsRecord,
  registerStagedTarget,
  type StagedTarget,
} from '../change-assessments/staged-targets.ts';
import { linkTo, lockedActive } from './active-link.ts';
import { numberOf } from './lineage.read.ts';

/*
 * A new approved version of a library entry reaches a facility's linked actives only through a
 * change assessment of that facility (issue 32; EU GMP Annex 15 §11, ICH Q9: a change to the
 * basis of the limits is assessed, its impact known, before it takes effect). Its approval opens
 * one in every facility that uses the entry, its change set moving each linked active to the new
 * version, its impact on every limit computed at once.
 */

type Mass = { value: number; unit: string };
const mass = (q: Mass | null) => (q ? formatQuantity(q.value, q.unit) : 'none');

interface LinkedActive {
  id: number;
  name: string;
  version: number;
  hbel_pde: Mass | null;
  pde_override: Mass | null;
}

async function linkedActive(q: Queryable, facilityId: number, id: number) {
  const [row] = await q.query<LinkedActive>(
    `select id, name, version, hbel_pde, pde_override from actives
      where facility_id = $1 and id = $2`,
    [facilityId, id],
  );
  if (!row) throw new AppError('NotFoundError', `Active ${id} was not found`);
  return row;
}

/** The staged move of a linked active to the entry's version in force (entity `hbelLink`). */
export const hbelLinkTarget: StagedTarget = {
  permission: () => ({ resource: 'API', action: 'Modify' }),
  validate(change) {
    if (change.op !== 'update')
      throw validationError([
        { property: 'op', constraints: { invalid: "An active's library link is only updated" } },
      ]);
    needsRecord(change);
    const parsed = ZHbelRelinkValues.safeParse(change.values);
    if (!parsed.success) throw bodyValidationError(parsed.error);
    return parsed.data;
  },
  async currentVersion(q, facilityId, recordId) {
    return (await linkedActive(q, facilityId, recordId)).version;
  },
  async label(q, facilityId, change) {
    const active = await linkedActive(q, facilityId, needsRecord(change));
    const { monographId, versionNumber } = ZHbelRelinkValues.parse(change.values);
    const ends = active.pde_override
      ? `; the site override of ${mass(active.pde_override)} ends`
      : '';
    return `Active '${active.name}': PDE from ${numberOf(monographId)} version ${versionNumber} (was ${mass(active.hbel_pde)}${ends})`;
  },
  async apply(tx, change, { actor, scope, reason }) {
    const row = await lockedActive(tx, scope.facilityId, needsRecord(change));
    if (change.recordVersion !== null && row.version !== change.recordVersion)
      throw new AppError('VersionConflictError');
    const { monographId, versionNumber } = ZHbelRelinkValues.parse(change.values);
    await linkTo(tx, actor, scope, row, { monographId, override: null, reason, versionNumber });
  },
};

/**
 * On the approval of a version after the first: in every facility of the plan with change control
 * and actives linked to an earlier version, a change assessment (HBEL/dose/batch change) staging each one's move to
 * this version, evaluated at once. An evaluation the facility's data cannot give (no approved
 * policy, say) is left for its assessor: the assessment stays Not Evaluated.
 */
async function openChangeAssessments(
  tx: Queryable,
  dbKind: Db['kind'],
  context: ApprovedContext,
): Promise<null> {
  if (context.versionNumber < 2) return null;
  const id = context.ref.documentId;
  const [monograph] = await tx.query<{ plan_id: number; substance: string }>(
    `select plan_id, substance from hbel_monographs where id = $1`,
    [id],
  );
  const linked = await tx.query<{ id: number; facility_id: number; version: number }>(
    `select id, facility_id, version from actives
      where hbel_monograph_id = $1 and hbel_version_number < $2 and archived_at is null
      order by facility_id, id`,
    [id, context.versionNumber],
  );
  // A facility without change control (its tier has none) keeps the version it linked until it
  // links the new one itself, with the reason its audit row keeps.
  const kinds = await facilityKinds(
    tx,
    linked.map((a) => a.facility_id),
  );
  const actives = linked.filter((a) => {
    const kind = kinds.get(a.facility_id);
    return kind !== undefined && hasFeature(kind, 'changeControl');
  });
  if (!monograph || actives.length === 0) return null;
  const pde = monographPde(context.content as unknown as THbelMonographContent).pde;
  const number = numberOf(id);
  const db = withinTransaction(tx, dbKind);
  const reason = `${number} version ${context.versionNumber} approved in the HBEL library`;
  for (const facilityId of new Set(actives.map((a) => a.facility_id))) {
    const scope = { planId: monograph.plan_id, facilityId };
    let assessment = await createChangeAssessment(db, context.actor, scope, {
      title: `${number} ${monograph.substance}: version ${context.versionNumber} of the HBEL library`,
      changeType: 'HBEL/dose/batch change',
      description: `Version ${context.versionNumber} of ${number} (${monograph.substance}) was approved in the plan's HBEL library, PDE ${mass(pde)}. The actives of this facility linked to it keep their earlier version until this assessment is approved.`,
      mocId: null,
      reason,
    });
    for (const active of actives.filter((a) => a.facility_id === facilityId))
      assessment = await stageChange(db, context.actor, scope, assessment.id, {
        op: 'update',
        entity: HBEL_LINK_TARGET,
        recordId: active.id,
        recordVersion: active.version,
        values: { monographId: id, versionNumber: context.versionNumber },
        reason,
        version: assessment.version,
      });
    await tx.query('savepoint hbel_change_evaluation');
    try {
      await evaluateChangeAssessment(db, context.actor, scope, assessment.id, {
        version: assessment.version,
      });
      await tx.query('release savepoint hbel_change_evaluation');
    } catch {
      await tx.query('rollback to savepoint hbel_change_evaluation');
    }
  }
  return null;
}

/** The library's part in change assessments: its staged target and what an approval opens. */
export function registerHbelChanges(dbKind: Db['kind']) {
  registerStagedTarget(HBEL_LINK_TARGET, hbelLinkTarget);
  return (tx: Queryable, context: ApprovedContext) => openChangeAssessments(tx, dbKind, context);
}
