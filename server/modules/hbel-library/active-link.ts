import { AppError } from '#core/errors/errors.ts';
import type { THbelLineage, THbelLinkRequest } from '#core/schemas/hbel-library.schemas.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { writeAudit } from '#server/db/audit-write.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { onBeforeSave } from '#server/entities/archive-hooks.ts';
import { updateVersioned } from '#server/entities/versioned-update.ts';
import { approvedMonograph, numberOf } from './hbel-monographs.ts';

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

function sourceText(number: string, substance: string, versionNumber: number, override: boolean) {
  const entry = `HBEL library ${number} (${substance}), version ${versionNumber}`;
  return override ? `Site override of ${entry}` : entry;
}

/** PUT {F}/apis/{id}/hbel-link: link, relink, override or unlink, audited under API. */
export async function linkActive(
  db: Db,
  actor: Actor,
  scope: { planId: number; facilityId: number },
  activeId: number,
  body: THbelLinkRequest,
) {
  await db.transaction(async (tx) => {
    const [row] = await tx.query<LinkRow>(
      `select * from actives where facility_id = $1 and id = $2 for update`,
      [scope.facilityId, activeId],
    );
    if (!row) throw new AppError('NotFoundError', `Active ${activeId} was not found`);
    if (row.version !== body.version) throw new AppError('VersionConflictError');
    const before = {
      monograph: row.hbel_monograph_id,
      versionNumber: row.hbel_version_number,
      pde: row.pde,
      override: row.pde_override,
      justification: row.pde_override_justification,
    };
    const target = {
      table: 'actives',
      ownerColumn: 'facility_id',
      ownerId: scope.facilityId,
      id: activeId,
      version: body.version,
    };
    if (body.monographId === null) {
      if (row.hbel_monograph_id === null)
        throw new AppError('NothingToChangeError', 'The active is not linked to the library');
      // The active keeps the PDE it had; from now on it is the site's own value.
      await updateVersioned(tx, target, actor.userId, {
        hbel_monograph_id: null,
        hbel_version_number: null,
        hbel_pde: null,
        pde_override: null,
        pde_override_justification: null,
        pde_source: `Formerly ${row.pde_source ?? 'the HBEL library'}`,
      });
      await writeAudit(tx, actor, {
        ...scope,
        domain: 'API',
        action: 'HbelUnlink',
        entityId: activeId,
        reason: body.reason,
        oldValues: before,
        newValues: { monograph: null, pde: row.pde },
      });
      return;
    }
    const { row: entry, approved } = await approvedMonograph(tx, scope.planId, body.monographId);
    if (!approved?.pde)
      throw new AppError(
        'TransactionLocked',
        `${numberOf(entry.id as number)} has no approved version yet: a site links to a signed PDE only`,
      );
    const override = body.pdeOverride;
    const pde = override ?? approved.pde;
    await updateVersioned(tx, target, actor.userId, {
      hbel_monograph_id: entry.id as number,
      hbel_version_number: approved.versionNumber,
      hbel_pde: JSON.stringify(approved.pde),
      pde_override: override ? JSON.stringify(override) : null,
      pde_override_justification: override ? body.justification : null,
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
      reason: body.reason,
      oldValues: before,
      newValues: {
        monograph: numberOf(entry.id as number),
        versionNumber: approved.versionNumber,
        libraryPde: approved.pde,
        override,
        justification: override ? body.justification : null,
        pde,
      },
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
  const rows = await q.query<LinkRow & { substance: string }>(
    `select a.*, m.substance from actives a join hbel_monographs m on m.id = a.hbel_monograph_id
      where a.facility_id = $1 and a.id = any($2::int[])`,
    [facilityId, ids],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        hbelLineage: [
          {
            monographId: r.hbel_monograph_id!,
            number: numberOf(r.hbel_monograph_id!),
            substance: r.substance,
            versionNumber: r.hbel_version_number!,
            libraryPde: r.hbel_pde as THbelLineage['libraryPde'],
            override: r.pde_override,
            justification: r.pde_override_justification,
            pde: r.pde,
          },
        ],
      },
    ]),
  );
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
