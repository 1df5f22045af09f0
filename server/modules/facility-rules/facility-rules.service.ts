import type { DomainWith } from '#core/audit/audit-events.ts';
import { AppError } from '#core/errors/errors.ts';
import { facilityRulesDecl } from '#core/entities/defs/settings.def.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import type { Scope } from '#server/entities/entity-store.ts';
import type { Actor } from '#server/db/audit-write.ts';
import {
  createRecord,
  writeRecord,
  type RecordType,
  type StoredRow,
} from '#server/records/write-record.ts';
import { changedFields } from '#server/db/audit-diff.ts';

export type RuleKind =
  'MicrobialPolicy' | 'InspectionSettings' | 'ApprovalPolicy' | 'RiskGoal' | 'VerificationSettings';

export interface StoredRule<T> {
  body: T;
  version: number;
  /** When it was last changed; null for the defaults. */
  updatedAt: Date | null;
}

/** A rule's own audit domain (RiskGoal, ApprovalPolicy…): made at its first edit, then updated. */
type RuleDomain = DomainWith<'Create' | 'Update'>;

/** Where a rule document lives and the audit domain its changes are recorded under. */
export interface RuleRef<T> {
  kind: RuleKind;
  /** The document type of an approval policy; '' for facility-wide rules. */
  key: string;
  domain: RuleDomain;
  defaults: T;
}

/** The facility's rule: the stored one over the defaults (fields added later get defaults), or the defaults at version 0. */
export async function getRule<T extends object>(
  q: Queryable,
  facilityId: number,
  ref: RuleRef<T>,
  lock = false,
): Promise<StoredRule<T>> {
  const [row] = await q.query<{ body: Partial<T>; version: number; updated_at: Date }>(
    `select body, version, updated_at from facility_rules where facility_id = $1 and kind = $2 and rule_key = $3
      ${lock ? 'for update' : ''}`,
    [facilityId, ref.kind, ref.key],
  );
  return row
    ? { body: { ...ref.defaults, ...row.body }, version: row.version, updatedAt: row.updated_at }
    : { body: ref.defaults, version: 0, updatedAt: null };
}

/** A rule through the one write path, audited under its own domain. */
const ruleType = (ref: RuleRef<object>): RecordType<RuleDomain> => ({
  decl: { ...facilityRulesDecl, domain: ref.domain },
  hooks: {},
});

/**
 * The stored rule locked, or null before its first edit; the facility's row orders two first
 * edits at once, so the second finds the first's rule (and its version) rather than a conflict
 * of keys.
 */
async function lockedRule(
  tx: Queryable,
  facilityId: number,
  ref: RuleRef<object>,
): Promise<StoredRow | null> {
  const select = `select * from facility_rules where facility_id = $1 and kind = $2 and rule_key = $3
     for update`;
  const params = [facilityId, ref.kind, ref.key];
  const [row] = await tx.query<StoredRow>(select, params);
  if (row) return row;
  await tx.query('select id from facilities where id = $1 for update', [facilityId]);
  const [first] = await tx.query<StoredRow>(select, params);
  return first ?? null;
}

/**
 * Changes the fields an edit names, with the version it was made from (a stale one gets 409)
 * and a reason, audited field by field in the same transaction. `check` may refuse the result.
 */
export async function updateRule<T extends object>(
  db: Db,
  actor: Actor,
  scope: Scope,
  ref: RuleRef<T>,
  edit: Partial<T>,
  meta: { reason: string; version: number },
  check?: (tx: Queryable, next: T) => Promise<void>,
): Promise<StoredRule<T>> {
  return db.transaction(async (tx) => {
    const stored = await lockedRule(tx, scope.facilityId, ref);
    const before = await getRule(tx, scope.facilityId, ref);
    if (meta.version !== before.version) throw new AppError('VersionConflictError');
    const { oldValues, newValues } = changedFields(
      before.body as Record<string, unknown>,
      edit as Record<string, unknown>,
    );
    const body = { ...before.body, ...newValues } as T;
    if (check) await check(tx, body);
    const keyed = ref.key ? { documentType: ref.key } : {};
    const audit = {
      reason: meta.reason,
      oldValues: { ...keyed, ...oldValues },
      newValues: { ...keyed, ...newValues },
    };
    const type = ruleType(ref);
    const json = JSON.stringify(body);
    const row = stored
      ? await writeRecord(tx, type, {
          actor,
          scope,
          row: stored,
          set: { body: json },
          audit: { action: 'Update', ...audit },
        })
      : await createRecord(tx, type, {
          actor,
          scope,
          values: { kind: ref.kind, rule_key: ref.key, body: json },
          audit: () => audit,
        });
    return { body, version: row.version as number, updatedAt: row.updated_at as Date };
  });
}
