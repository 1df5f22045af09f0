import { AppError, validationError } from '#core/errors/errors.ts';
import { ROOM_GRADES } from '#core/schemas/room-grades.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { equipmentDef as def } from '#core/entities/defs/index.ts';
import { roomGradesDecl } from '#core/entities/defs/room-grades.def.ts';
import type { Scope } from '#server/entities/entity-store.ts';
import { updateEntity } from '#server/entities/entity-write.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { writeRecord, type RecordType } from '#server/records/write-record.ts';

type Grade = (typeof ROOM_GRADES)[number];

/** A grade's own write is its mapping: nothing of the equipment's is its hook. */
const roomGradeType: RecordType<typeof roomGradesDecl.domain> = { decl: roomGradesDecl, hooks: {} };

function iso(value: unknown): string {
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

/** The four grades of the facility with the live equipment standing in each. */
export async function listRoomGrades(q: Queryable, facilityId: number) {
  const rows = await q.query<{
    id: number;
    grade: Grade;
    description: string;
    version: number;
    updated_at: unknown;
    equipment_ids: number[] | null;
  }>(
    `select g.id, g.grade, g.description, g.version, g.updated_at,
            (select array_agg(e.id order by e.id) from equipment e
              where e.facility_id = g.facility_id and e.room_grade = g.grade and e.archived_at is null) as equipment_ids
       from room_grades g where g.facility_id = $1 order by g.grade`,
    [facilityId],
  );
  return rows.map((r) => ({
    id: r.id,
    grade: r.grade,
    description: r.description,
    equipmentIds: (r.equipment_ids ?? []).map(Number),
    version: r.version,
    updatedAt: iso(r.updated_at),
  }));
}

/** A grade named by its id or its letter. */
async function gradeOf(q: Queryable, facilityId: number, id: string, lock: boolean) {
  const letter = ROOM_GRADES.find((g) => g === id.toUpperCase());
  const [row] = await q.query<{ id: number; grade: Grade; version: number }>(
    `select id, grade, version from room_grades where facility_id = $1
        and (grade = $2 or ($3::int is not null and id = $3)) ${lock ? 'for update' : ''}`,
    [facilityId, letter ?? null, /^\d+$/.test(id) ? Number(id) : null],
  );
  if (!row) throw new AppError('NotFoundError', 'No such room grade in this facility');
  return row;
}

/**
 * Makes `equipments` the live equipment of the grade: listed items take the grade, items of the
 * grade left out lose it. Each item's change is audited on the item (its version moves, so an
 * open equipment form sees the change), and the mapping on the grade, in one transaction.
 */
export async function mapRoomGrade(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: string,
  input: { equipments: number[]; reason: string; version: number },
) {
  return db.transaction(async (tx) => {
    const grade = await gradeOf(tx, scope.facilityId, id, true);
    if (input.version !== grade.version) throw new AppError('VersionConflictError');
    const wanted = [...new Set(input.equipments)];
    if (wanted.length !== input.equipments.length)
      throw validationError([
        { property: 'equipments', constraints: { unique: 'lists the same item twice' } },
      ]);
    const items = await tx.query<{ id: number; room_grade: string | null }>(
      `select id, room_grade from equipment
        where facility_id = $1 and archived_at is null and (id = any($2::int[]) or room_grade = $3)
        order by id for update`,
      [scope.facilityId, wanted, grade.grade],
    );
    const known = new Set(items.map((i) => i.id));
    const problems = wanted
      .map((equipmentId, index) => ({ equipmentId, index }))
      .filter(({ equipmentId }) => !known.has(equipmentId))
      .map(({ index }) => ({
        property: `equipments[${index}]`,
        constraints: { reference: 'No such equipment in this facility (archived or removed)' },
      }));
    if (problems.length > 0) throw validationError(problems);
    const wantedSet = new Set(wanted);
    const changes = items
      .map((item) => ({
        id: item.id,
        from: item.room_grade,
        to: wantedSet.has(item.id) ? grade.grade : null,
      }))
      .filter((c) => c.from !== c.to);
    if (changes.length === 0)
      throw new AppError(
        'NothingToChangeError',
        'No changes have been made from the current values. Please check all fields and try again.',
      );
    // Each item's grade is an edit of the equipment record, versioned and audited by the store.
    for (const change of changes) {
      const edit = { roomGrade: change.to };
      await updateEntity(tx, { actor, def, scope, id: change.id, edit, reason: input.reason });
    }
    await writeRecord(tx, roomGradeType, {
      actor,
      scope,
      row: grade,
      set: {},
      audit: {
        action: 'Update',
        reason: input.reason,
        oldValues: {
          grade: grade.grade,
          equipments: items.filter((i) => i.room_grade === grade.grade).map((i) => i.id),
        },
        newValues: { grade: grade.grade, equipments: wanted },
      },
    });
    const all = await listRoomGrades(tx, scope.facilityId);
    return all.find((g) => g.id === grade.id)!;
  });
}
