import { AppError } from '#core/errors/errors.ts';
import type { THbelLineage, THbelLinkRequest } from '#core/schemas/hbel-library.schemas.ts';
import { meaningOf } from '#core/schemas/signatures.schemas.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { writeAudit } from '#server/db/audit-write.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { onBeforeSave } from '#server/entities/archive-hooks.ts';
import { updateVersioned } from '#server/entities/versioned-update.ts';
import { writeActSignature } from '#server/records/signature-write.ts';
import { verifySigner } from '../auth/signing-password.ts';
import type { KeyConfig } from '../active-directory/active-directory.settings.ts';
import { assertMaySignAct } from '../signatures/signatures.service.ts';
import { numberOf as caNumber } from '../change-assessments/change-assessments.read.ts';
import { approvedMonograph, numberOf } from './hbel-monographs.ts';
import { readLineages } from './lineage.read.ts';

/*
 * A facility's active linked to an entry of the plan's HBEL library (issue 32). The active's PDE,
 * the one the limits read, is the entry's approved version's, pinned to that version; a site may
 * override it only with a justification, which the audit row and the lineage carry (EMA HBEL
 * guideline §7 and its Q&A: a PDE used is documented with its derivation; 21 CFR 211.68, 11.10(e)).
 */

type Mass = { value: number; unit: string };

interface LinkRow {
  id: number;
  facility_id: number;
  version: number;
  pde: Mass | null;
  pde_source: string | null;
  hbel_monograph_id: number | null;
  hbel_version_number: number | null;
  hbel_pde: Mass | null;
  pde_override: Mass | null;
  pde_override_justification: string | null;
}

/** How an override is signed: the password check's settings and the signatures' MAC key. */
interface Signing {
  config: KeyConfig;
  key: () => Promise<Buffer>;
}

export const OVERRIDE_MEANING = meaningOf('HbelOverride', 'Approve');

/** An override as it was signed: rebuilt from its kept row to check its signature again. */
interface OverrideRow {
  id: number;
  facility_id: number;
  active_id: number;
  hbel_monograph_id: number;
  hbel_version_number: number;
  library_pde: Mass;
  pde: Mass;
  justification: string;
  signature_id: number;
}

/** What an override's signature signs: the entry and version, both PDEs and the justification. */
function overrideContent(o: Omit<OverrideRow, 'id' | 'facility_id' | 'signature_id'>) {
  return {
    activeId: o.active_id,
    monograph: numberOf(o.hbel_monograph_id),
    versionNumber: o.hbel_version_number,
    libraryPde: o.library_pde,
    pde: o.pde,
    justification: o.justification,
  };
}

/** The kept overrides of these signatures, as each signed them (registerSignedAct). */
export async function overridesSigned(
  q: Queryable,
  facilityIds: readonly number[],
  signatureIds: readonly number[],
): Promise<Map<number, unknown>> {
  const rows = await q.query<OverrideRow>(
    `select * from hbel_pde_overrides
      where facility_id = any($1::int[]) and signature_id = any($2::int[])`,
    [facilityIds, signatureIds],
  );
  return new Map(rows.map((r) => [r.signature_id, overrideContent(r)]));
}

/**
 * The override's electronic signature, made as every signature is (writeSignature): the active's
 * next override (documentType HbelOverride, `versionNumber` counting its overrides; the active's
 * row is locked), by a signer
 * with the right to sign records (ApprovalPolicy Sign, 21 CFR 11.200), meaning 'Approve site PDE
 * override'; then the override kept as signed, never changed afterwards.
 */
async function signOverride(
  tx: Queryable,
  key: Buffer,
  actor: Actor,
  scope: { planId: number; facilityId: number },
  kept: Omit<OverrideRow, 'id' | 'facility_id' | 'signature_id'>,
  reason: string,
): Promise<number> {
  await assertMaySignAct(tx, actor.userId!, scope.facilityId, 'Overriding a library PDE');
  const content = overrideContent(kept);
  const signature = await writeActSignature(
    tx,
    actor,
    key,
    scope,
    {
      documentType: 'HbelOverride',
      documentId: kept.active_id,
      meaning: OVERRIDE_MEANING,
      content,
      reason,
    },
    content,
  );
  const [row] = await tx.query<{ id: number }>(
    `insert into hbel_pde_overrides (facility_id, active_id, hbel_monograph_id,
       hbel_version_number, library_pde, pde, justification, signature_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
    [
      scope.facilityId,
      kept.active_id,
      kept.hbel_monograph_id,
      kept.hbel_version_number,
      JSON.stringify(kept.library_pde),
      JSON.stringify(kept.pde),
      kept.justification,
      signature.id,
    ],
  );
  return row!.id;
}

function sourceText(number: string, substance: string, versionNumber: number, override: boolean) {
  const entry = `HBEL library ${number} (${substance}), version ${versionNumber}`;
  return override ? `Site override of ${entry}` : entry;
}

/** The active's row as the link reads it, locked; 404 when it is not the facility's. */
export async function lockedActive(tx: Queryable, facilityId: number, id: number) {
  const [row] = await tx.query<LinkRow>(
    `select * from actives where facility_id = $1 and id = $2 for update`,
    [facilityId, id],
  );
  if (!row) throw new AppError('NotFoundError', `Active ${id} was not found`);
  return row;
}

/** The active's row as a versioned write names it. */
const activeTarget = (row: LinkRow) => ({
  table: 'actives',
  ownerColumn: 'facility_id',
  ownerId: row.facility_id,
  id: row.id,
  version: row.version,
});

/** What an active's link was, as its audit rows keep it. */
const linkValues = (row: LinkRow) => ({
  monograph: row.hbel_monograph_id,
  versionNumber: row.hbel_version_number,
  pde: row.pde,
  override: row.pde_override,
  justification: row.pde_override_justification,
});

/**
 * Links a locked active to the approved version of a library entry, with a site override signed
 * here or none, and audits it: the one write of a link, from the link route and from a change
 * assessment's approval (a new version of the entry reaching the site).
 */
export async function linkTo(
  tx: Queryable,
  actor: Actor,
  scope: { planId: number; facilityId: number },
  row: LinkRow,
  link: {
    monographId: number;
    override: { pde: Mass; justification: string; key: Buffer } | null;
    reason: string;
    /** The version the link must take (a change assessment staged for it), when named. */
    versionNumber?: number;
  },
): Promise<void> {
  const activeId = row.id;
  const target = activeTarget(row);
  const { row: entry, approved } = await approvedMonograph(tx, scope.planId, link.monographId);
  if (!approved?.pde)
    throw new AppError(
      'TransactionLocked',
      `${numberOf(entry.id as number)} has no approved version yet: a site links to a signed PDE only`,
    );
  if (link.versionNumber !== undefined && approved.versionNumber !== link.versionNumber)
    throw new AppError(
      'TransactionLocked',
      `${numberOf(entry.id as number)} version ${link.versionNumber} is no longer the version in force (version ${approved.versionNumber} is)`,
    );
  const override = link.override?.pde ?? null;
  const justification = link.override?.justification ?? null;
  const pde = override ?? approved.pde;
  const overrideId = link.override
    ? await signOverride(
        tx,
        link.override.key,
        actor,
        scope,
        {
          active_id: activeId,
          hbel_monograph_id: entry.id as number,
          hbel_version_number: approved.versionNumber,
          library_pde: approved.pde,
          pde: link.override.pde,
          justification: link.override.justification,
        },
        link.reason,
      )
    : null;
  await updateVersioned(tx, target, actor.userId, {
    hbel_monograph_id: entry.id as number,
    hbel_version_number: approved.versionNumber,
    hbel_pde: JSON.stringify(approved.pde),
    pde_override: override ? JSON.stringify(override) : null,
    pde_override_justification: justification,
    pde_override_id: overrideId,
    pde: JSON.stringify(pde),
    pde_basis: 'PDE',
    pde_source: sourceText(
      numberOf(entry.id as number),
      entry.substance as string,
      approved.versionNumber,
      override !== null,
    ),
  });
  await writeAudit(tx, actor, {
    ...scope,
    domain: 'API',
    action: override ? 'HbelOverride' : 'HbelLink',
    entityId: activeId,
    reason: link.reason,
    oldValues: linkValues(row),
    newValues: {
      monograph: numberOf(entry.id as number),
      versionNumber: approved.versionNumber,
      libraryPde: approved.pde,
      override,
      justification,
      pde,
    },
  });
}

/**
 * A newer version of the entry an active is linked to reaches it through the change assessment
 * its approval opened (hbel-change.ts; EU GMP Annex 15 §11): while that assessment is open, the
 * link route does not move the active to it (nor override on it) behind the assessment's back.
 */
async function refuseWhileAssessed(tx: Queryable, row: LinkRow): Promise<void> {
  const [open] = await tx.query<{ seq: number }>(
    `select ca.seq from change_assessment_changes c
       join change_assessments ca on ca.id = c.assessment_id
      where c.facility_id = $1 and c.entity = 'hbelLink' and c.record_id = $2
        and c.removed_at is null and ca.cancelled_at is null
        and (c."values"->>'versionNumber')::int > $3
      order by ca.seq limit 1`,
    [row.facility_id, row.id, row.hbel_version_number ?? 0],
  );
  if (open)
    throw new AppError(
      'TransactionLocked',
      `A newer version of ${numberOf(row.hbel_monograph_id!)} reaches this active through change assessment ${caNumber(open.seq)}: approve or cancel it first`,
    );
}

/**
 * PUT {F}/apis/{id}/hbel-link: link, relink, override or unlink, audited under API. An override
 * is signed: its signer re-enters their password (21 CFR 11.200(a)) before anything is read.
 */
export async function linkActive(
  db: Db,
  signing: Signing,
  actor: Actor,
  scope: { planId: number; facilityId: number },
  activeId: number,
  body: THbelLinkRequest,
) {
  let key: Buffer | null = null;
  if (body.pdeOverride) {
    await verifySigner(db, signing.config, actor, actor.userId!, body);
    key = await signing.key();
  }
  await db.transaction(async (tx) => {
    const row = await lockedActive(tx, scope.facilityId, activeId);
    if (row.version !== body.version) throw new AppError('VersionConflictError');
    if (body.monographId !== null && body.monographId === row.hbel_monograph_id)
      await refuseWhileAssessed(tx, row);
    if (body.monographId === null) {
      if (row.hbel_monograph_id === null)
        throw new AppError('NothingToChangeError', 'The active is not linked to the library');
      // The active keeps the PDE it had; from now on it is the site's own value.
      await updateVersioned(tx, activeTarget(row), actor.userId, {
        hbel_monograph_id: null,
        hbel_version_number: null,
        hbel_pde: null,
        pde_override: null,
        pde_override_justification: null,
        pde_override_id: null,
        pde_source: `Formerly ${row.pde_source ?? 'the HBEL library'}`,
      });
      await writeAudit(tx, actor, {
        ...scope,
        domain: 'API',
        action: 'HbelUnlink',
        entityId: activeId,
        reason: body.reason,
        oldValues: linkValues(row),
        newValues: { monograph: null, pde: row.pde },
      });
      return;
    }
    await linkTo(tx, actor, scope, row, {
      monographId: body.monographId,
      override: body.pdeOverride
        ? { pde: body.pdeOverride, justification: body.justification!, key: key! }
        : null,
      reason: body.reason,
    });
  });
  const [lineage] = (await lineages(db, scope.facilityId, [activeId])).values();
  const [row] = await db.query<{ version: number }>(`select version from actives where id = $1`, [
    activeId,
  ]);
  return { activeId, version: row!.version, lineage: lineage?.hbelLineage[0] ?? null };
}

/** The lineage of the facility's linked actives, as the actives' reads carry it (read-extras). */
export async function lineages(
  q: Queryable,
  facilityId: number,
  ids: readonly number[],
): Promise<Map<number, { hbelLineage: THbelLineage[] }>> {
  const found = await readLineages(q, facilityId, ids);
  return new Map([...found].map(([id, lineage]) => [id, { hbelLineage: [lineage] }]));
}

/**
 * A linked active's PDE is the library's (or the site's justified override): an edit of it
 * through the active's own form would leave the lineage saying what is no longer true, so it is
 * refused; the link route overrides or unlinks it with the reason the audit row keeps.
 */
export function refuseLinkedPdeEdits(): void {
  onBeforeSave('actives', 'hbel-lineage', async (q, _def, scope, { changed, id }) => {
    const facilityId = scope.facilityId;
    if (id === null || facilityId === undefined) return;
    if (!['pde', 'pdeBasis', 'pdeSource'].some((f) => f in changed)) return;
    const [row] = await q.query<{ hbel_monograph_id: number | null }>(
      `select hbel_monograph_id from actives where facility_id = $1 and id = $2`,
      [facilityId, id],
    );
    if (row?.hbel_monograph_id)
      throw new AppError(
        'TransactionLocked',
        `This active's PDE comes from ${numberOf(row.hbel_monograph_id)} of the HBEL library: override it with a justification on its library link, or unlink it first`,
      );
  });
}
