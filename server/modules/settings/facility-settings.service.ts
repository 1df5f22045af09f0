import { AppError } from '#core/errors/errors.ts';
import type {
  TDateTimeSettings,
  TDateTimeSettingsRead,
  TDefaultUnit,
} from '#core/schemas/settings.schemas.ts';
import { isAllowed, MEASURES, type MeasureName } from '#core/units/measures.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { changedFields } from '#server/db/audit-diff.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { defaultUnitsDecl } from '#core/entities/defs/settings.def.ts';
import { writeRecord, type RecordType, type StoredRow } from '#server/records/write-record.ts';
import { updateVersioned } from '#server/entities/versioned-update.ts';

export interface FacilityScope {
  plan: number;
  facility: number;
}

interface DateTimeRow {
  timezone: string;
  date_format: TDateTimeSettings['dateFormat'];
  time_format: TDateTimeSettings['timeFormat'];
  country: string | null;
  significant_digits: number;
  version: number;
}

function toSettings(row: DateTimeRow): TDateTimeSettingsRead {
  return {
    timezone: row.timezone,
    dateFormat: row.date_format,
    timeFormat: row.time_format,
    country: row.country,
    significantDigits: row.significant_digits,
    version: row.version,
  };
}

async function dateTimeRow(q: Queryable, scope: FacilityScope, lock = false): Promise<DateTimeRow> {
  const [row] = await q.query<DateTimeRow>(
    `select timezone, date_format, time_format, country, significant_digits, version from facilities
      where id = $1 and plan_id = $2 ${lock ? 'for update' : ''}`,
    [scope.facility, scope.plan],
  );
  if (!row) throw new AppError('NotFoundError', 'No such facility');
  return row;
}

export async function getDateTimeSettings(
  db: Db,
  scope: FacilityScope,
): Promise<TDateTimeSettingsRead> {
  return toSettings(await dateTimeRow(db, scope));
}

/**
 * Like every other setting, an edit names the version it was made from (the facility's), so of
 * two parallel edits the second gets 409 rather than silently undoing the first.
 */
export async function updateDateTimeSettings(
  db: Db,
  actor: Actor,
  scope: FacilityScope,
  edit: {
    settings: Omit<TDateTimeSettings, 'country' | 'significantDigits'> & {
      country?: string | null | undefined;
      significantDigits?: number | undefined;
    };
    version: number;
    reason: string;
  },
): Promise<TDateTimeSettingsRead> {
  return db.transaction(async (tx) => {
    const { version: _read, ...before } = toSettings(await dateTimeRow(tx, scope, true));
    const next: TDateTimeSettings = {
      ...edit.settings,
      country: edit.settings.country || null,
      significantDigits: edit.settings.significantDigits ?? before.significantDigits,
    };
    const diff = changedFields({ ...before }, { ...next });
    // The facility's row, written only at the version the edit was made from (409 otherwise).
    const facility = { table: 'facilities', ownerColumn: 'plan_id', ownerId: scope.plan };
    const updated = await updateVersioned(
      tx,
      { ...facility, id: scope.facility, version: edit.version },
      actor.userId,
      {
        timezone: next.timezone,
        date_format: next.dateFormat,
        time_format: next.timeFormat,
        country: next.country,
        significant_digits: next.significantDigits,
      },
      'version',
    );
    await writeAudit(tx, actor, {
      planId: scope.plan,
      facilityId: scope.facility,
      domain: 'DateTimeSettings',
      action: 'Update',
      entityId: scope.facility,
      reason: edit.reason,
      ...diff,
    });
    return { ...next, version: updated.version as number };
  });
}

interface DefaultUnitRow {
  id: number;
  short_name: string;
  unit: string;
}

/** A default unit through the one write path: nothing besides is its own. */
const defaultUnitType: RecordType<typeof defaultUnitsDecl.domain> = {
  decl: defaultUnitsDecl,
  hooks: {},
};

function isMeasure(name: string): name is MeasureName {
  return Object.hasOwn(MEASURES, name);
}

function toDefaultUnit(row: DefaultUnitRow): TDefaultUnit {
  const measure = isMeasure(row.short_name) ? MEASURES[row.short_name] : null;
  return {
    id: row.id,
    shortName: row.short_name,
    unit: row.unit,
    name: measure?.label ?? row.short_name,
    allowedUnits: measure ? [...measure.allowed] : [row.unit],
  };
}

export async function listDefaultUnits(db: Db, scope: FacilityScope): Promise<TDefaultUnit[]> {
  const rows = await db.query<DefaultUnitRow>(
    `select d.id, d.short_name, d.unit from default_units d
       join facilities f on f.id = d.facility_id
      where d.facility_id = $1 and f.plan_id = $2 order by d.id`,
    [scope.facility, scope.plan],
  );
  return rows.map(toDefaultUnit);
}

/** Sets the unit new values of one measure start in; only a unit that measure allows. */
export async function updateDefaultUnit(
  db: Db,
  actor: Actor,
  scope: FacilityScope,
  id: number,
  unit: string,
  reason: string,
): Promise<TDefaultUnit> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<DefaultUnitRow & StoredRow>(
      `select d.* from default_units d
         join facilities f on f.id = d.facility_id
        where d.id = $1 and d.facility_id = $2 and f.plan_id = $3 for update of d`,
      [id, scope.facility, scope.plan],
    );
    if (!row) throw new AppError('NotFoundError', 'No such default unit in this facility');
    if (!isMeasure(row.short_name) || !isAllowed(row.short_name, unit)) {
      const allowed = toDefaultUnit(row).allowedUnits.join(', ');
      throw new AppError('DataValidationError', `unit: allowed units are ${allowed}`, {
        errors: [
          { property: 'unit', constraints: { allowedUnit: `Allowed units are ${allowed}` } },
        ],
      });
    }
    const diff = changedFields({ unit: row.unit }, { unit });
    const updated = await writeRecord(tx, defaultUnitType, {
      actor,
      scope: { planId: scope.plan, facilityId: scope.facility },
      row,
      set: { unit },
      audit: { action: 'Update', entity: `${id} (${row.short_name})`, reason, ...diff },
    });
    return toDefaultUnit(updated as DefaultUnitRow);
  });
}
