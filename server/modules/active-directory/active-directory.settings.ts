import { AppError, validationError } from '#core/errors/errors.ts';
import type {
  TActiveDirectorySettings,
  TGroupRole,
  TUpdateActiveDirectorySettingsRequest,
} from '#core/schemas/active-directory.schemas.ts';
import type { Config } from '#server/config.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { changedFields } from '#server/db/audit-diff.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { planSettingsDecl } from '#core/entities/defs/settings.def.ts';
import { openPlanRecord, writePlanRecord } from '#server/records/plan-record.ts';
import { decryptSetting, encryptSetting } from '#server/util/setting-secrets.ts';
import { isLoopbackUrl, type Directory } from './directory-client.ts';

export type KeyConfig = Pick<Config, 'SETTINGS_SECRET_KEY' | 'DATA_DIR'>;

interface AdJson {
  enabled: boolean;
  url: string;
  baseDn: string;
  bindDn: string;
  userSearchAttributes: string[];
  useTls: boolean;
  groupRoles: TGroupRole[];
}

interface AdRow {
  active_directory: AdJson | null;
  active_directory_bind_password: string | null;
  version: number;
}

async function adRow(q: Queryable, planId: number): Promise<AdRow> {
  const [row] = await q.query<AdRow>(
    `select active_directory, active_directory_bind_password, version
       from plan_settings where plan_id = $1`,
    [planId],
  );
  return row ?? { active_directory: null, active_directory_bind_password: null, version: 1 };
}

function toSettings(row: AdRow): TActiveDirectorySettings {
  const ad = row.active_directory;
  return {
    enabled: ad?.enabled ?? false,
    url: ad?.url ?? null,
    baseDn: ad?.baseDn ?? null,
    bindDn: ad?.bindDn ?? null,
    hasBindPassword: Boolean(row.active_directory_bind_password),
    userSearchAttributes: ad?.userSearchAttributes ?? ['sAMAccountName'],
    useTls: ad?.useTls ?? false,
    groupRoles: ad?.groupRoles ?? [],
    version: row.version,
  };
}

export async function getActiveDirectorySettings(
  db: Db,
  planId: number,
): Promise<TActiveDirectorySettings> {
  return toSettings(await adRow(db, planId));
}

/** Each mapped role must be a live role of a facility of this plan. */
async function assertGroupRoles(q: Queryable, planId: number, groupRoles: TGroupRole[]) {
  const errors = [];
  for (const [i, mapping] of groupRoles.entries()) {
    const [ok] = await q.query(
      `select 1 from roles r join facilities f on f.id = r.facility_id
        where f.plan_id = $1 and f.id = $2 and r.id = $3 and r.archived_at is null`,
      [planId, mapping.facilityId, mapping.roleId],
    );
    if (!ok) {
      errors.push({
        property: `groupRoles[${i}].roleId`,
        constraints: { exists: 'Choose an active role of a facility of this plan' },
      });
    }
  }
  if (errors.length) throw validationError(errors);
}

/**
 * Changes the plan's directory; the bind password is encrypted and audited only as "changed".
 * A directory away from this machine must be reached over TLS: the users' passwords cross it.
 */
export async function updateActiveDirectorySettings(
  db: Db,
  config: KeyConfig,
  actor: Actor,
  planId: number,
  request: TUpdateActiveDirectorySettingsRequest,
): Promise<TActiveDirectorySettings> {
  const tls = request.useTls || request.url.startsWith('ldaps://');
  if (!tls && !isLoopbackUrl(request.url)) {
    throw validationError([
      {
        property: 'useTls',
        constraints: {
          tls: 'A directory on another machine must be reached with ldaps:// or StartTLS',
        },
      },
    ]);
  }
  return db.transaction(async (tx) => {
    const row = await openPlanRecord<AdRow>(tx, planSettingsDecl, planId, request.version);
    await assertGroupRoles(tx, planId, request.groupRoles);
    const next: AdJson = {
      enabled: request.enabled,
      url: request.url,
      baseDn: request.baseDn,
      bindDn: request.bindDn,
      userSearchAttributes: request.userSearchAttributes,
      useTls: request.useTls,
      groupRoles: request.groupRoles,
    };
    const secret = request.bindPassword
      ? encryptSetting(config, request.bindPassword)
      : row.active_directory_bind_password;
    if (next.enabled && !secret) {
      throw validationError([
        { property: 'bindPassword', constraints: { required: 'Bind password is required' } },
      ]);
    }
    const after = toSettings({
      active_directory: next,
      active_directory_bind_password: secret,
      version: row.version,
    });
    const diff = changedFields(
      { ...toSettings(row), version: undefined, bindPasswordChanged: false },
      { ...after, version: undefined, bindPasswordChanged: Boolean(request.bindPassword) },
    );
    const updated = await writePlanRecord(
      tx,
      { ...planSettingsDecl, domain: 'ActiveDirectorySettings' },
      {
        actor,
        planId,
        row,
        set: { active_directory: JSON.stringify(next), active_directory_bind_password: secret },
        audit: { action: 'Update', reason: request.reason, ...diff },
      },
    );
    return { ...after, version: updated.version as number };
  });
}

/** The plan's directory ready to use, or 404 when it is not set up or switched off. */
export async function directoryOf(db: Queryable, config: KeyConfig, planId: number) {
  const row = await adRow(db, planId);
  const ad = row.active_directory;
  if (!ad?.enabled || !row.active_directory_bind_password) {
    throw new AppError('NotFoundError', 'Active Directory is not configured');
  }
  const directory: Directory = {
    url: ad.url,
    baseDn: ad.baseDn,
    bindDn: ad.bindDn,
    bindPassword: decryptSetting(config, row.active_directory_bind_password),
    userSearchAttributes: ad.userSearchAttributes,
    useTls: ad.useTls,
    groupRoles: ad.groupRoles,
  };
  return directory;
}
