import { rightText } from '#core/permissions/permission-texts.ts';
import {
  deriveEquipmentStatus,
  standingEntries,
  whyRefused,
  type MomentFormat,
} from '#core/equipment-status/equipment-status.ts';
import { LOGBOOK_EVENT_LABELS } from '#core/equipment-status/equipment-status-labels.ts';
import { AppError, validationError } from '#core/errors/errors.ts';
import { RELEASE_MEANING, type TLogbookRequest } from '#core/schemas/equipment-status.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { emitRecordEvent } from '#server/records/record-events.ts';
import { writeRefusal } from '#server/http/refusal-audit.ts';
import type { Scope } from '#server/entities/entity-store.ts';
import { versionInForce } from '#server/records/controlled.ts';
import { writeActSignature } from '#server/records/signature-write.ts';
import type { KeyConfig } from '../active-directory/active-directory.settings.ts';
import { verifySigner } from '../auth/signing-password.ts';
import { contentInForce } from '../policies/policy-in-force.ts';
import { signerIn } from '../signatures/signatures.service.ts';
import { changeoverCoverage, productCover } from './changeover-coverage.ts';
import {
  facilityMoments,
  factsOf,
  iso,
  keepFolds,
  logbookRows,
  readLogbook,
  releaseContent,
  type LogbookRow,
} from './logbook.read.ts';
import { runName } from '../verification/runs/runs.read.ts';

/** How a release is signed: the password check's settings and the signatures' MAC key. */
export interface Signing {
  config: KeyConfig;
  key: () => Promise<Buffer>;
}

const refuseInput = (property: string, message: string): never => {
  throw validationError([{ property, constraints: { [property]: message } }]);
};

/** The production hold's refusal: 409 EquipmentNotReleased with every reason (issue 31). */
function notReleased(reasons: string[]): never {
  throw new AppError(
    'EquipmentNotReleased',
    `The equipment is not released: ${reasons.join('; ')}`,
    {
      otherErrors: reasons,
    },
  );
}

export async function equipmentItem(q: Queryable, facilityId: number, id: number, lock = false) {
  const [item] = await q.query<{ id: number; name: string }>(
    `select id, name from equipment where facility_id = $1 and id = $2 and archived_at is null
      ${lock ? 'for update' : ''}`,
    [facilityId, id],
  );
  if (!item)
    throw new AppError(
      'NotFoundError',
      'No such equipment in this facility (it may have been archived)',
    );
  return item;
}

interface RunFacts {
  id: number;
  /** The run as people name it: "ST-0001 run 2". */
  name: string;
  release_flag: 'CAN_BE_RELEASED' | 'MAY_BE_RELEASED' | 'CAN_NOT_BE_RELEASED';
  dirty: number | null;
  clean: number | null;
}

async function runOf(q: Queryable, facilityId: number, runId: number): Promise<RunFacts> {
  // The run's stored flag is the one source of its release (runs.read.ts); its study pinned the
  // protocol's content, whose validated hold times apply to the cleaning it verifies.
  const [run] = await q.query<Omit<RunFacts, 'name'> & { seq: number; sequence: number }>(
    `select r.id, r.release_flag, s.seq, r.sequence,
            (s.protocol_content ->> 'dirtyHoldMaxHours')::double precision as dirty,
            (s.protocol_content ->> 'cleanHoldMaxHours')::double precision as clean
       from study_runs r join studies s on s.id = r.study_id
      where r.facility_id = $1 and r.id = $2`,
    [facilityId, runId],
  );
  if (!run) return refuseInput('runId', 'No such verification run in this facility');
  return { ...run, name: runName(run.seq, run.sequence) };
}

/** The facility's default hold times: the cleaning inspection settings in force. */
async function facilityHolds(q: Queryable, facilityId: number) {
  const { content } = await contentInForce<{
    dirtyHoldTimeHours?: number | null;
    cleanHoldTimeHours?: number | null;
  }>(q, facilityId, 'InspectionSettings');
  return { dirty: content.dirtyHoldTimeHours ?? null, clean: content.cleanHoldTimeHours ?? null };
}

interface ProtocolHolds {
  equipmentIds?: number[];
  productIds?: number[];
  productGroupId?: number | null;
  dirtyHoldMaxHours?: number | null;
  cleanHoldMaxHours?: number | null;
}

/**
 * The strictest hold of the approved protocols that cover the item and the product last made on
 * it (their version in force names both, the product by name or by its group), or null when none
 * gives one.
 */
async function coveringProtocolHold(
  q: Queryable,
  facilityId: number,
  equipmentId: number,
  productId: number | null,
  kind: 'dirty' | 'clean',
): Promise<number | null> {
  if (productId === null) return null;
  const cover = await productCover(q, facilityId, productId);
  const candidates = await q.query<{ id: number }>(
    `select id from protocols where facility_id = $1 and archived_at is null
        and $2 = any(equipment_ids) and ($3 = any(product_ids) or product_group_id = any($4::int[]))`,
    [facilityId, equipmentId, productId, cover.groupIds],
  );
  const hours: number[] = [];
  for (const { id } of candidates) {
    const ref = { facilityId, documentType: 'Protocol' as const, documentId: id };
    const content = (await versionInForce<ProtocolHolds>(q, ref))?.content;
    const covers = content?.equipmentIds?.includes(equipmentId) && cover.covers(content);
    const hold = kind === 'dirty' ? content?.dirtyHoldMaxHours : content?.cleanHoldMaxHours;
    if (covers && typeof hold === 'number') hours.push(hold);
  }
  return hours.length > 0 ? Math.min(...hours) : null;
}

/**
 * The hold time pinned on the entry that starts it (Annex 15 §10.12: hold times established by
 * validation): the validated protocol's (of the cleaning's verification run, else the strictest
 * approved protocol covering the item and its last product), else the facility's default.
 */
async function holdFor(
  q: Queryable,
  facilityId: number,
  equipmentId: number,
  request: TLogbookRequest,
  context: { run: RunFacts | null; lastProductId: number | null },
) {
  if (request.event !== 'UseEnded' && request.event !== 'CleaningEnded') return null;
  const kind = request.event === 'UseEnded' ? 'dirty' : 'clean';
  const { run, lastProductId } = context;
  const validated =
    run && run[kind] !== null
      ? run[kind]
      : await coveringProtocolHold(q, facilityId, equipmentId, lastProductId, kind);
  if (validated !== null) return { kind, hours: validated, source: 'protocol' as const };
  const hours = (await facilityHolds(q, facilityId))[kind];
  return hours === null ? null : { kind, hours, source: 'facility default' as const };
}

/**
 * The production hold's changeover reasons (issue 31): the next product may follow the last one
 * only when a Validated study covers the cleaning after it (changeover-coverage.ts), or when the
 * release was judged on a verification run of that cleaning (Annex 15 §10.11: a changeover not
 * covered is verified before the next use).
 */
async function uncoveredChangeover(
  q: Queryable,
  facilityId: number,
  equipmentId: number,
  rows: Awaited<ReturnType<typeof logbookRows>>,
  change: { lastProductId: number | null; productId: number | undefined; at: Date },
): Promise<string[]> {
  const { lastProductId, productId, at } = change;
  if (lastProductId === null || productId === undefined) return [];
  // The release in force and the cleaning it released: the last of each that stands.
  const standing = standingEntries(rows.map(factsOf));
  const latest = ['CleaningEnded', 'Released'].map((event) =>
    standing.findLast((f) => f.event === event),
  );
  const verified = latest.some((f) => f && rows.find((r) => r.id === f.id)?.run_id != null);
  if (verified) return [];
  const coverage = await changeoverCoverage(q, facilityId, [equipmentId], lastProductId, at);
  return coverage.reasons.map((reason) => `${reason}: verify this changeover before the next use`);
}

/** The product and cleaning procedure an entry names must be the facility's (422 otherwise). */
async function checkReferences(q: Queryable, facilityId: number, request: TLogbookRequest) {
  const refs = [
    ['productId', 'products', 'product', request.productId],
    [
      'cleaningProcedureId',
      'cleaning_procedures',
      'cleaning procedure',
      request.cleaningProcedureId,
    ],
  ] as const;
  for (const [property, table, label, id] of refs) {
    if (id === undefined) continue;
    const [found] = await q.query(`select 1 from ${table} where facility_id = $1 and id = $2`, [
      facilityId,
      id,
    ]);
    if (!found) refuseInput(property, `No such ${label} in this facility`);
  }
}

/** When the entry happened: now, or an earlier `at` with a reason, never before the last entry. */
function whenOf(
  request: TLogbookRequest,
  now: Date,
  lastAt: string | null,
  formatMoment: MomentFormat,
) {
  if (request.at === undefined) return { at: now, backDated: false };
  const at = new Date(request.at);
  if (at.getTime() > now.getTime()) refuseInput('at', 'An entry cannot be dated in the future');
  if (lastAt !== null && at.getTime() < Date.parse(lastAt))
    refuseInput('at', `An entry cannot be dated before the last entry (${formatMoment(lastAt)})`);
  const backDated = at.getTime() < now.getTime();
  if (backDated && !request.reason) refuseInput('reason', 'A back-dated entry needs a reason');
  return { at, backDated };
}

/**
 * `POST {F}/equipment/{id}/logbook`: appends one entry, audited in the same transaction. The
 * item's row is locked so that two entries of one item are judged one after the other. A use
 * starts only on a Released item within its clean hold (the production hold, 409
 * EquipmentNotReleased); Released is an electronic signature by someone with the right to sign
 * who did not record the cleaning, refused while the cleaning's verification run is not
 * releasable (21 CFR 211.67, 211.182; Part 11 §11.50, §11.200).
 */
export async function recordEntry(
  db: Db,
  signing: Signing,
  actor: Actor,
  scope: Scope,
  equipmentId: number,
  request: TLogbookRequest,
  now: Date,
) {
  await equipmentItem(db, scope.facilityId, equipmentId);
  let key: Buffer | null = null;
  if (request.event === 'Released') {
    await verifySigner(db, signing.config, actor, actor.userId!, request);
    key = await signing.key();
  }
  try {
    return await appendEntry(db, key, actor, scope, equipmentId, request, now);
  } catch (error) {
    // A refused start or release changes nothing, but the attempt is kept (Annex 11 §12.4,
    // DESIGN: every failed attempt), written once the refused transaction has rolled back.
    const refused =
      error instanceof AppError &&
      (error.errName === 'EquipmentNotReleased' || error.errName === 'NotAllowed');
    if (refused && !db.joinsTransaction)
      await writeRefusal(db, actor, {
        planId: scope.planId,
        facilityId: scope.facilityId,
        domain: 'EquipmentLogbook',
        action: 'Refused',
        entityId: equipmentId,
        values: { attempted: request.event, why: error.message },
      });
    throw error;
  }
}

async function appendEntry(
  db: Db,
  key: Buffer | null,
  actor: Actor,
  scope: Scope,
  equipmentId: number,
  request: TLogbookRequest,
  now: Date,
) {
  return db.transaction(async (tx) => {
    const item = await equipmentItem(tx, scope.facilityId, equipmentId, true);
    const rows = await logbookRows(tx, scope.facilityId, equipmentId);
    const moment = await facilityMoments(tx, scope.facilityId);
    const facts = rows.map(factsOf);
    const { at, backDated } = whenOf(request, now, facts.at(-1)?.at ?? null, moment);
    const status = deriveEquipmentStatus(facts, at, moment);

    if (request.event === 'Correction') {
      const target = rows.find((r) => r.id === request.correctsId);
      if (!target) refuseInput('correctsId', 'No such entry in this logbook');
      if (target!.event === 'Correction')
        refuseInput('correctsId', 'A correction is not corrected');
      if (rows.some((r) => r.corrects_id === request.correctsId))
        refuseInput(
          'correctsId',
          `The ${LOGBOOK_EVENT_LABELS[target!.event]} entry of ${moment(iso(target!.occurred_at))} is already corrected`,
        );
    }
    const refusals = [...whyRefused(status, request)];
    if (request.event === 'UseStarted' && refusals.length === 0)
      refusals.push(
        ...(await uncoveredChangeover(tx, scope.facilityId, equipmentId, rows, {
          lastProductId: status.lastProductId,
          productId: request.productId,
          at,
        })),
      );
    if (refusals.length > 0) {
      const holdExpired = request.event === 'Released' && status.state === 'HoldExpired';
      if (request.event === 'UseStarted' || holdExpired) notReleased(refusals);
      refuseInput('event', refusals.join('; '));
    }

    await checkReferences(tx, scope.facilityId, request);
    let run: RunFacts | null = null;
    // A release is judged on the run the cleaning named, unless it names one itself.
    const cleaningEnded = standingEntries(facts).findLast((f) => f.event === 'CleaningEnded');
    const runId =
      request.runId ??
      (request.event === 'Released' && cleaningEnded
        ? (rows.find((r) => r.id === cleaningEnded.id)?.run_id ?? undefined)
        : undefined);
    if (runId !== undefined) run = await runOf(tx, scope.facilityId, runId);

    let releasedAtRisk = false;
    if (request.event === 'Released') {
      // 21 CFR 211.67 and Part 11 §11.200: the release is a second person's signature, with the
      // right to sign records (ApprovalPolicy Sign, the right every other signature needs).
      const signer = await signerIn(tx, actor.userId!, scope.facilityId);
      if (!signer.maySign)
        throw new AppError(
          'NotAllowed',
          `Releasing equipment needs ${rightText('ApprovalPolicy', 'Sign')}`,
        );
      if (status.cleanedBy === actor.userId)
        throw new AppError(
          'NotAllowed',
          'The person who recorded the cleaning may not release the equipment',
        );
      if (run && run.release_flag === 'CAN_NOT_BE_RELEASED')
        notReleased([`Verification run ${run.name} cannot be released`]);
      releasedAtRisk = run?.release_flag === 'MAY_BE_RELEASED';
    }

    const hold = await holdFor(tx, scope.facilityId, equipmentId, request, {
      run,
      lastProductId: status.lastProductId,
    });
    const values = {
      event: request.event,
      at: at.toISOString(),
      backDated,
      productId: request.productId ?? null,
      batch: request.batch ?? null,
      cleaningProcedureId: request.cleaningProcedureId ?? null,
      runId: runId ?? null,
      correctsId: request.correctsId ?? null,
      dirtyHoldHours: hold?.kind === 'dirty' ? hold.hours : null,
      cleanHoldHours: hold?.kind === 'clean' ? hold.hours : null,
      holdSource: hold?.source ?? null,
      releasedAtRisk,
    };
    const signature =
      request.event === 'Released'
        ? await signRelease(tx, key!, actor, scope, item, {
            id: 0,
            equipment_id: equipmentId,
            event: request.event,
            occurred_at: values.at,
            recorded_at: values.at,
            back_dated: backDated,
            recorded_by: actor.userId!,
            product_id: values.productId,
            batch: values.batch,
            cleaning_procedure_id: values.cleaningProcedureId,
            run_id: values.runId,
            reason: request.reason ?? null,
            corrects_id: null,
            dirty_hold_hours: null,
            clean_hold_hours: null,
            hold_source: null,
            released_at_risk: releasedAtRisk,
          })
        : null;
    const [inserted] = await tx.query<{ id: number }>(
      `insert into equipment_logbook (facility_id, equipment_id, event, occurred_at, back_dated,
         product_id, batch, cleaning_procedure_id, run_id, reason, corrects_id, dirty_hold_hours,
         clean_hold_hours, hold_source, released_at_risk, signature_id, recorded_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
       returning id`,
      [
        scope.facilityId,
        equipmentId,
        request.event,
        values.at,
        backDated,
        values.productId,
        values.batch,
        values.cleaningProcedureId,
        values.runId,
        request.reason ?? null,
        values.correctsId,
        values.dirtyHoldHours,
        values.cleanHoldHours,
        values.holdSource,
        releasedAtRisk,
        signature?.id ?? null,
        actor.userId,
      ],
    );
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: 'EquipmentLogbook',
      action: request.event,
      entityId: equipmentId,
      reason: request.reason ?? null,
      newValues: {
        entryId: inserted!.id,
        equipment: item.name,
        ...values,
        ...(signature && {
          signatureId: signature.id,
          meaning: signature.meaning,
          printedName: signature.printed_name,
          contentHash: signature.content_hash,
        }),
      },
    });
    if (request.event === 'Released')
      // The plant's systems learn of the release with it (issue 33); the signature is its record.
      await emitRecordEvent(tx, {
        facilityId: scope.facilityId,
        event: 'equipment.released',
        record: { type: 'Equipment', id: equipmentId },
        data: {
          equipment: item.name,
          entryId: inserted!.id,
          releasedAt: values.at,
          releasedAtRisk,
          runId: values.runId,
          signatureId: signature?.id ?? null,
        },
      });
    await keepFolds(tx, scope.facilityId, [equipmentId]);
    const logbook = await readLogbook(tx, scope.facilityId, item, now);
    return { entry: logbook.entries.find((e) => e.id === inserted!.id)!, status: logbook.status };
  });
}

/**
 * The release's electronic signature, made as every signature is (writeSignature): the item's
 * next release (documentType EquipmentRelease, `versionNumber` counting the item's releases),
 * signing the Released entry as it will be stored (releaseContent), by the signer as an Approver
 * with the fixed meaning 'Release equipment'. The item's row is locked, so the count holds.
 */
async function signRelease(
  tx: Queryable,
  key: Buffer,
  actor: Actor,
  scope: Scope,
  item: { id: number; name: string },
  entry: LogbookRow,
) {
  // Every Released entry of the item is a release, those signed before the signatures kept
  // releases (earlierReleaseSignatures) too: the count goes on after them.
  const [{ count }] = (await tx.query<{ count: number }>(
    `select count(*)::int as count from equipment_logbook
      where facility_id = $1 and equipment_id = $2 and event = 'Released'`,
    [scope.facilityId, item.id],
  )) as [{ count: number }];
  return writeActSignature(
    tx,
    actor,
    key,
    scope,
    {
      documentType: 'EquipmentRelease',
      documentId: item.id,
      meaning: RELEASE_MEANING,
      content: releaseContent(entry),
      reason: entry.reason,
      versionNumber: count + 1,
    },
    { equipment: item.name, releasedAtRisk: entry.released_at_risk },
  );
}
