import { rightText } from '#core/permissions/permission-texts.ts';
import { AppError, validationError } from '#core/errors/errors.ts';
import { hbelMonographsDecl } from '#core/entities/defs/hbel.def.ts';
import { monographPde } from '#core/hbel/monograph-pde.ts';
import { isAllowed } from '#core/permissions/permission-map.ts';
import type {
  THbelMonograph,
  THbelMonographContent,
  THbelVersion,
  ZCreateHbelMonograph,
  ZNewHbelVersion,
} from '#core/schemas/hbel-library.schemas.ts';
import type { TRecordStatus, TSignatureState } from '#core/schemas/signatures.schemas.ts';
import type { z } from 'zod';
import type { Actor } from '#server/db/audit-write.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { signerIn } from '#server/modules/signatures/signatures.service.ts';
import {
  isDraftStatus,
  registerDocumentType,
  type DocumentTypeRegistration,
} from '#server/records/controlled.ts';
import {
  createRecord,
  openRecord,
  writeRecord,
  type RecordType,
  type StoredRow,
} from '#server/records/write-record.ts';
import { numberOf } from './lineage.read.ts';

export { numberOf };

/*
 * The plan's HBEL library (issue 32): each monograph a controlled record over the one record
 * mechanism (server/records/README.md), signed through `POST {F}/signatures` in the facility
 * that signs it, whose approval policy names the toxicologist's step (EMA HBEL guideline §3: a
 * PDE is derived and signed by a qualified expert).
 */

export const DOCUMENT_TYPE = 'HbelMonograph' as const;

const titleOf = (id: number, substance: string) => `${numberOf(id)} ${substance}`;

async function content(tx: Queryable, _scope: unknown, id: number) {
  const [row] = await tx.query<{ monograph: THbelMonographContent; substance: string }>(
    `select monograph, substance from hbel_monographs where id = $1`,
    [id],
  );
  return { content: row!.monograph as Record<string, unknown>, title: titleOf(id, row!.substance) };
}

export const hbelType: RecordType<'HbelMonograph'> = {
  decl: hbelMonographsDecl,
  hooks: { content },
};

/** The PDE a monograph's inputs give, refused (422) when they give none. */
function computedPde(m: THbelMonographContent) {
  const computed = monographPde(m);
  if (!computed.pde)
    throw validationError(
      computed.problems.map((p) => ({ property: 'monograph', constraints: { pde: p } })),
      'The monograph does not give a PDE',
    );
  return computed.pde;
}

/** The study report must be an attachment kept in a facility of the plan. */
async function checkAttachment(q: Queryable, planId: number, m: THbelMonographContent) {
  const id = m.pointOfDeparture.attachmentId;
  if (id === null) return;
  const [found] = await q.query(
    `select 1 from attachments a join facilities f on f.id = a.facility_id
      where a.id = $1 and f.plan_id = $2`,
    [id, planId],
  );
  if (!found)
    throw validationError([
      {
        property: 'pointOfDeparture.attachmentId',
        constraints: { reference: 'No such attachment in this plan' },
      },
    ]);
}

async function refuseDuplicate(q: Queryable, planId: number, substance: string, id = 0) {
  const [found] = await q.query(
    `select 1 from hbel_monographs
      where plan_id = $1 and lower(substance) = lower($2) and archived_at is null and id <> $3`,
    [planId, substance, id],
  );
  if (found)
    throw new AppError(
      'DuplicateEntryError',
      `The library already has a monograph of ${substance}`,
    );
}

/** The monograph of a request, its PDE and the columns that keep both. */
function prepared(body: Record<string, unknown>) {
  const { signingFacilityId: _f, version: _v, reason: _r, ...rest } = body;
  const monograph = rest as THbelMonographContent;
  const pde = computedPde(monograph);
  const columns = {
    substance: monograph.substance,
    monograph: JSON.stringify(monograph),
    pde: JSON.stringify(pde),
  };
  return { monograph, pde, columns };
}

/** POST {plan}/hbel-library: version 1, being built, in the facility that will sign it. */
export async function createMonograph(
  db: Db,
  actor: Actor,
  planId: number,
  body: z.output<typeof ZCreateHbelMonograph>,
): Promise<THbelMonograph> {
  const { monograph, pde, columns } = prepared(body);
  const id = await db.transaction(async (tx) => {
    const [facility] = await tx.query(
      `select 1 from facilities where id = $1 and plan_id = $2 and archived_at is null`,
      [body.signingFacilityId, planId],
    );
    if (!facility)
      throw validationError([
        {
          property: 'signingFacilityId',
          constraints: { facility: 'Name a facility of this plan' },
        },
      ]);
    // Whoever creates it submits it there: Submit needs API Add in that facility.
    const member = await signerIn(tx, actor.userId!, body.signingFacilityId);
    if (!isAllowed(member.permissions, 'API', 'Add'))
      throw new AppError(
        'NotAllowed',
        `Creating a monograph needs ${rightText('API', 'Add')} in its signing facility`,
      );
    await refuseDuplicate(tx, planId, monograph.substance);
    await checkAttachment(tx, planId, monograph);
    const row = await createRecord(tx, hbelType, {
      actor,
      scope: { planId, facilityId: body.signingFacilityId },
      values: { plan_id: planId, ...columns },
      audit: (r) => ({
        entity: numberOf(r.id as number),
        newValues: { ...monograph, pde },
      }),
    });
    return row.id as number;
  });
  return readMonograph(db, planId, id);
}

async function planRow(q: Queryable, planId: number, id: number): Promise<StoredRow> {
  const [row] = await q.query<StoredRow>(
    `select * from hbel_monographs where plan_id = $1 and id = $2`,
    [planId, id],
  );
  if (!row) throw new AppError('NotFoundError', `HBEL monograph ${id} was not found`);
  return row;
}

/**
 * POST {plan}/hbel-library/{id}: the next version of an approved monograph (or the version being
 * built changed); the approved one stays in force until this one is signed.
 */
export async function newMonographVersion(
  db: Db,
  actor: Actor,
  planId: number,
  id: number,
  body: z.output<typeof ZNewHbelVersion>,
): Promise<THbelMonograph> {
  const { monograph, pde, columns } = prepared(body);
  await db.transaction(async (tx) => {
    const found = await planRow(tx, planId, id);
    const scope = { planId, facilityId: found.facility_id as number };
    const row = await openRecord(tx, hbelType, actor, scope, id, body.version);
    await refuseDuplicate(tx, planId, monograph.substance, id);
    await checkAttachment(tx, planId, monograph);
    await writeRecord(tx, hbelType, {
      actor,
      scope,
      row,
      set: columns,
      audit: {
        action: 'Update',
        entity: numberOf(id),
        reason: body.reason,
        oldValues: { ...(row.monograph as object), pde: row.pde },
        newValues: { ...monograph, pde },
      },
    });
  });
  return readMonograph(db, planId, id);
}

interface VersionRow {
  document_id: number;
  version_number: number;
  status: TRecordStatus;
  signature_state: TSignatureState | null;
  content: THbelMonographContent;
  approved_at: Date | string | null;
}

function toVersion(v: VersionRow): THbelVersion {
  const computed = monographPde(v.content);
  const approvedAt = v.approved_at === null ? null : new Date(v.approved_at).toISOString();
  return {
    versionNumber: v.version_number,
    status: v.status,
    signatureState: v.signature_state,
    approvedAt,
    monograph: v.content,
    pde: computed.pde,
    derivation: computed.derivation,
  };
}

async function versionRows(q: Queryable, rows: readonly StoredRow[]): Promise<VersionRow[]> {
  if (rows.length === 0) return [];
  return q.query<VersionRow>(
    `select v.document_id, v.version_number, v.status, v.signature_state, v.content, v.approved_at
       from controlled_versions v join hbel_monographs m
         on m.id = v.document_id and m.facility_id = v.facility_id
      where v.document_type = $1 and v.document_id = any($2::int[])
      order by v.document_id, v.version_number`,
    [DOCUMENT_TYPE, rows.map((r) => r.id as number)],
  );
}

function toMonograph(row: StoredRow, versions: VersionRow[]): THbelMonograph {
  const latest = versions[versions.length - 1]!;
  const approved = versions.find((v) => v.status === 'Approved');
  const draft = toVersion(latest);
  const inForce = approved ? toVersion(approved) : null;
  return {
    id: row.id as number,
    number: numberOf(row.id as number),
    planId: row.plan_id as number,
    signingFacilityId: row.facility_id as number,
    substance: row.substance as string,
    inForce,
    draft,
    status: latest.status,
    signatureState: latest.signature_state,
    versionNumber: latest.version_number,
    inForceVersionNumber: approved?.version_number ?? null,
    draftVersionNumber:
      isDraftStatus(latest.status) && latest.version_number !== approved?.version_number
        ? latest.version_number
        : null,
    version: row.version as number,
  };
}

/** GET {plan}/hbel-library/{id}. */
export async function readMonograph(q: Queryable, planId: number, id: number) {
  const row = await planRow(q, planId, id);
  return toMonograph(row, await versionRows(q, [row]));
}

/** GET {plan}/hbel-library: the plan's monographs (archived ones left out), by substance. */
export async function listMonographs(q: Queryable, planId: number, search?: string) {
  const rows = await q.query<StoredRow>(
    `select * from hbel_monographs
      where plan_id = $1 and archived_at is null
        and ($2::text is null or substance ilike '%' || $2 || '%')
      order by lower(substance), id`,
    [planId, search ?? null],
  );
  const versions = await versionRows(q, rows);
  const items = rows.map((row) =>
    toMonograph(
      row,
      versions.filter((v) => v.document_id === row.id),
    ),
  );
  return { items, count: items.length };
}

/** GET {plan}/hbel-library/{id}/versions: each version as its signers saw it, oldest first. */
export async function monographVersions(q: Queryable, planId: number, id: number) {
  const row = await planRow(q, planId, id);
  return { versions: (await versionRows(q, [row])).map(toVersion) };
}

/** GET {plan}/hbel-library/{id}/where-used: the actives of the plan's facilities linked to it. */
export async function monographWhereUsed(q: Queryable, planId: number, id: number) {
  await planRow(q, planId, id);
  const rows = await q.query<{
    facility_id: number;
    facility_name: string;
    id: number;
    name: string;
    hbel_version_number: number;
    pde_override: { value: number; unit: string } | null;
  }>(
    `select a.facility_id, f.name as facility_name, a.id, a.name, a.hbel_version_number,
            a.pde_override
       from actives a join facilities f on f.id = a.facility_id
      where a.hbel_monograph_id = $1 and f.plan_id = $2 and a.archived_at is null
      order by f.name, a.name`,
    [id, planId],
  );
  return {
    usedBy: rows.map((r) => ({
      facilityId: r.facility_id,
      facilityName: r.facility_name,
      activeId: r.id,
      activeName: r.name,
      versionNumber: r.hbel_version_number,
      override: r.pde_override,
    })),
  };
}

/** The version in force of a monograph of the plan, or null before any approval. */
export async function approvedMonograph(q: Queryable, planId: number, id: number) {
  const row = await planRow(q, planId, id);
  const [v] = await q.query<VersionRow>(
    `select document_id, version_number, status, signature_state, content, approved_at
       from controlled_versions
      where facility_id = $1 and document_type = $2 and document_id = $3 and status = 'Approved'`,
    [row.facility_id, DOCUMENT_TYPE, id],
  );
  return { row, approved: v ? toVersion(v) : null };
}

/**
 * Registers the type: Submit needs API Add (who creates monographs); `onApproved` is what an
 * approval opens besides (hbel-change.ts: a change assessment in each facility that uses it).
 */
export function registerHbelType(onApproved?: DocumentTypeRegistration['onApproved']): void {
  registerDocumentType(DOCUMENT_TYPE, {
    resource: 'API',
    action: 'Add',
    ...(onApproved && { onApproved }),
    title: (c) => String(c.substance ?? ''),
    isArchived: async (q, ref) => {
      const [row] = await q.query<{ archived_at: unknown }>(
        `select archived_at from hbel_monographs where id = $1`,
        [ref.documentId],
      );
      return Boolean(row?.archived_at);
    },
    recordVersion: async (q, ref) => {
      const [row] = await q.query<{ version: number }>(
        `select version from hbel_monographs where facility_id = $1 and id = $2`,
        [ref.facilityId, ref.documentId],
      );
      return row?.version ?? null;
    },
    liveContent: async (q, facilityId, ids) => {
      const rows = await q.query<{ id: number; monograph: Record<string, unknown> }>(
        `select id, monograph from hbel_monographs where facility_id = $1 and id = any($2::int[])`,
        [facilityId, ids],
      );
      return new Map(rows.map((r) => [r.id, r.monograph]));
    },
  });
}
