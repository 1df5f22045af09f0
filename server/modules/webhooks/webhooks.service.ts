import { auditSubject, type AuditRowLike } from '#core/audit/audit-format.ts';
import { AppError, validationError } from '#core/errors/errors.ts';
import type { TListQuery } from '#core/schemas/common.schemas.ts';
import type {
  TCreateWebhookRequest,
  TUpdateWebhookRequest,
  TWebhook,
  TWebhookDelivery,
  TWebhookEvent,
} from '#core/schemas/webhooks.schemas.ts';
import { webhooksDecl } from '#core/entities/defs/webhooks.def.ts';
import type { Config } from '#server/config.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { likePattern, pageOf, pageWindow } from '#server/db/paging.ts';
import {
  createRecord,
  NOW,
  openRecord,
  writeRecord,
  type Assigned,
  type RecordScope,
  type RecordType,
} from '#server/records/write-record.ts';
import { auditNames } from '#server/modules/audit/audit-names.ts';
import { randomToken } from '#server/util/secrets.ts';
import { encryptSetting } from '#server/util/setting-secrets.ts';
import { targetProblem } from './webhook-targets.ts';

/*
 * A facility's webhooks (issue 33) through the one write path: versioned, audited, archived with
 * a reason. The secret is answered once, when it is set, and kept encrypted (AES-256-GCM with
 * SETTINGS_SECRET_KEY) because the worker must sign with it; audit rows and history never hold it.
 */

export const webhookType: RecordType<typeof webhooksDecl.domain> = {
  decl: webhooksDecl,
  hooks: {},
};

type KeyConfig = Pick<Config, 'SETTINGS_SECRET_KEY' | 'DATA_DIR' | 'WEBHOOK_ALLOWED_HOSTS'>;

/** A URL the server may not post to is refused on its field, before anything is written. */
async function checkTarget(config: KeyConfig, url: string): Promise<void> {
  const problem = await targetProblem(url, config.WEBHOOK_ALLOWED_HOSTS);
  if (problem) throw validationError([{ property: 'url', constraints: { target: problem } }]);
}

interface WebhookRow {
  id: number;
  url: string;
  events: TWebhookEvent[];
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
  archived_at: Date | string | null;
  archive_reason: string | null;
  pending: number;
  failed: number;
  last_delivered_at: Date | string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

const COLUMNS = `w.id, w.url, w.events, w.version, w.created_at, w.updated_at, w.archived_at,
  w.archive_reason,
  (select count(*)::int from webhook_deliveries d
    where d.webhook_id = w.id and d.state = 'pending') as pending,
  (select count(*)::int from webhook_deliveries d
    where d.webhook_id = w.id and d.state = 'failed') as failed,
  (select max(d.delivered_at) from webhook_deliveries d where d.webhook_id = w.id)
    as last_delivered_at`;

function toWebhook(row: WebhookRow): TWebhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    version: row.version,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    archivedAt: isoOrNull(row.archived_at),
    archiveReason: row.archive_reason,
    pending: row.pending,
    failed: row.failed,
    lastDeliveredAt: isoOrNull(row.last_delivered_at),
  };
}

export async function getWebhook(q: Queryable, facilityId: number, id: number): Promise<TWebhook> {
  const [row] = await q.query<WebhookRow>(
    `select ${COLUMNS} from webhooks w where w.facility_id = $1 and w.id = $2`,
    [facilityId, id],
  );
  if (!row) throw new AppError('NotFoundError', `Webhook ${id} was not found`);
  return toWebhook(row);
}

export async function listWebhooks(
  db: Db,
  facilityId: number,
  query: TListQuery & { archived?: 'true' | 'false' | undefined },
) {
  const where = `w.facility_id = $1 and (w.archived_at is not null) = $2
    and ($3::text is null or w.url ilike $3 or array_to_string(w.events, ' ') ilike $3)`;
  const params = [facilityId, query.archived === 'true', likePattern(query.search)];
  const { limit, offset } = pageWindow(query);
  const [rows, [count]] = await Promise.all([
    db.query<WebhookRow>(
      `select ${COLUMNS} from webhooks w where ${where} order by w.id limit $4 offset $5`,
      [...params, limit, offset],
    ),
    db.query<{ total: number }>(
      `select count(*)::int as total from webhooks w where ${where}`,
      params,
    ),
  ]);
  return pageOf(rows.map(toWebhook), count!.total, query);
}

export interface WebhookCall {
  actor: Actor;
  scope: RecordScope;
  config: KeyConfig;
}

/** The secret to keep: the one given, or a new random one. */
const secretOf = (given: string | undefined) => given ?? `whsec_${randomToken()}`;

export async function createWebhook(
  db: Db,
  { actor, scope, config }: WebhookCall,
  input: TCreateWebhookRequest,
): Promise<{ result: TWebhook; secret: string }> {
  const secret = secretOf(input.secret);
  await checkTarget(config, input.url);
  return db.transaction(async (tx) => {
    const row = await createRecord(tx, webhookType, {
      actor,
      scope,
      values: {
        url: input.url,
        events: input.events,
        secret_encrypted: encryptSetting(config, secret),
      },
      audit: () => ({ newValues: { url: input.url, events: input.events, secretSet: true } }),
    });
    return { result: await getWebhook(tx, scope.facilityId, row.id as number), secret };
  });
}

export async function updateWebhook(
  db: Db,
  { actor, scope, config }: WebhookCall,
  id: number,
  input: TUpdateWebhookRequest,
): Promise<{ result: TWebhook; secret?: string }> {
  if (input.url !== undefined) await checkTarget(config, input.url);
  return db.transaction(async (tx) => {
    const row = await openRecord(tx, webhookType, actor, scope, id, input.version);
    if (row.archived_at)
      throw new AppError('TransactionLocked', 'The webhook is archived: unarchive it to edit it');
    const secret = input.rotateSecret ? secretOf(undefined) : input.secret;
    const set: Record<string, Assigned> = {};
    const oldValues: Record<string, unknown> = {};
    const newValues: Record<string, unknown> = {};
    if (input.url !== undefined && input.url !== row.url) {
      set.url = input.url;
      oldValues.url = row.url;
      newValues.url = input.url;
    }
    const events = input.events;
    if (events !== undefined && events.join() !== (row.events as string[]).join()) {
      set.events = events;
      oldValues.events = row.events;
      newValues.events = events;
    }
    if (secret !== undefined) {
      set.secret_encrypted = encryptSetting(config, secret);
      newValues.secretChanged = true;
    }
    if (Object.keys(set).length === 0)
      throw new AppError(
        'NothingToChangeError',
        'No changes have been made from the current values. Please check all fields and try again.',
      );
    await writeRecord(tx, webhookType, {
      actor,
      scope,
      row,
      set,
      audit: { action: 'Update', reason: input.reason, oldValues, newValues },
    });
    const result = await getWebhook(tx, scope.facilityId, id);
    return input.rotateSecret ? { result, secret: secret! } : { result };
  });
}

/**
 * Archiving stops deliveries (those waiting stay waiting, and go out in order after an
 * unarchive); unarchiving resumes them.
 */
export async function setWebhookArchived(
  db: Db,
  { actor, scope }: Omit<WebhookCall, 'config'>,
  id: number,
  input: { reason: string; version: number },
  archived: boolean,
): Promise<TWebhook> {
  return db.transaction(async (tx) => {
    const row = await openRecord(tx, webhookType, actor, scope, id, input.version);
    if ((row.archived_at !== null) === archived)
      throw new AppError(
        'NothingToChangeError',
        archived ? 'The webhook is already archived' : 'The webhook is not archived',
      );
    await writeRecord(tx, webhookType, {
      actor,
      scope,
      row,
      set: archived
        ? { archived_at: NOW, archived_by: actor.userId, archive_reason: input.reason }
        : { archived_at: null, archived_by: null, archive_reason: null },
      audit: { action: archived ? 'Archive' : 'Unarchive', reason: input.reason },
    });
    return getWebhook(tx, scope.facilityId, id);
  });
}

interface DeliveryRow {
  id: number | string;
  event_id: number | string;
  event: TWebhookEvent;
  record_type: string;
  record_id: number;
  occurred_at: Date | string;
  state: TWebhookDelivery['state'];
  next_attempt_at: Date | string;
  delivered_at: Date | string | null;
  attempts: {
    attempt: number;
    at: string;
    status: number | null;
    error: string | null;
    ms: number;
  }[];
}

/** The audit domains of the events' record types; any other type is a controlled record's. */
const RECORD_DOMAINS: Readonly<Record<string, string>> = {
  Run: 'Run',
  SampleResult: 'SampleResult',
  Equipment: 'Equipment',
  FacilityLimits: 'Facility',
  ChangeAssessment: 'ChangeAssessment',
};

/** An event's record as an audit row names it, so the log says it in words (issue 30). */
function recordAsAuditRow(type: string, id: number): AuditRowLike {
  const domain = RECORD_DOMAINS[type];
  return domain
    ? { domain, entityId: String(id), oldValues: null, newValues: null }
    : {
        domain: 'ElectronicSignature',
        entityId: null,
        oldValues: null,
        newValues: { documentType: type, documentId: id },
      };
}

type FacilityOf = { planId: number; facilityId: number };

/** Deliveries of a hook with their tries, newest first: a page of them, or the one named. */
async function readDeliveries(
  q: Queryable,
  scope: FacilityOf,
  id: number,
  which: { limit: number; offset: number } | { deliveryId: number },
): Promise<TWebhookDelivery[]> {
  const one = 'deliveryId' in which;
  const rows = await q.query<DeliveryRow>(
    `select d.id, d.event_id, e.event, e.record_type, e.record_id, e.occurred_at, d.state,
            d.next_attempt_at, d.delivered_at,
            coalesce((select json_agg(json_build_object('attempt', a.attempt,
                        'at', a.attempted_at, 'status', a.status, 'error', a.error,
                        'ms', a.duration_ms) order by a.attempt)
                        from webhook_attempts a where a.delivery_id = d.id), '[]') as attempts
       from webhook_deliveries d join webhook_events e on e.id = d.event_id
      where d.webhook_id = $1 and d.facility_id = $2 and ($3::bigint is null or d.id = $3)
      order by d.id desc limit $4 offset $5`,
    one
      ? [id, scope.facilityId, which.deliveryId, 1, 0]
      : [id, scope.facilityId, null, which.limit, which.offset],
  );
  const records = rows.map((r) => recordAsAuditRow(r.record_type, r.record_id));
  const names = await auditNames(q, scope.planId, records);
  return rows.map((r, i) => ({
    id: Number(r.id),
    eventId: Number(r.event_id),
    event: r.event,
    record: { type: r.record_type, id: r.record_id },
    subject: auditSubject(records[i]!, names),
    occurredAt: iso(r.occurred_at),
    state: r.state,
    attempts: r.attempts.map((a) => ({ ...a, at: iso(a.at) })),
    nextAttemptAt: r.state === 'pending' ? iso(r.next_attempt_at) : null,
    deliveredAt: isoOrNull(r.delivered_at),
  }));
}

/** The delivery log of a hook: newest first, each with every try. */
export async function listDeliveries(db: Db, scope: FacilityOf, id: number, query: TListQuery) {
  await getWebhook(db, scope.facilityId, id);
  const [data, [count]] = await Promise.all([
    readDeliveries(db, scope, id, pageWindow(query)),
    db.query<{ total: number }>(
      `select count(*)::int as total from webhook_deliveries where webhook_id = $1 and facility_id = $2`,
      [id, scope.facilityId],
    ),
  ]);
  return pageOf(data, count!.total, query);
}

/**
 * Sends a delivery that was given up again, at once, with the retries of a first delivery; its
 * earlier tries stay in the log. Only a failed one: a pending one is still being tried, and a
 * delivered one was received (a receiver that lost it asks for it by its event id). A later
 * event of the same record still waiting waits for it again, so the order per record holds.
 */
export async function redeliver(
  db: Db,
  { actor, scope }: Omit<WebhookCall, 'config'>,
  id: number,
  deliveryId: number,
  reason: string,
): Promise<TWebhookDelivery> {
  return db.transaction(async (tx) => {
    const hook = await getWebhook(tx, scope.facilityId, id);
    const [row] = await tx.query<{ state: string; event_id: string; event: string }>(
      `select d.state, d.event_id, e.event from webhook_deliveries d
         join webhook_events e on e.id = d.event_id
        where d.id = $1 and d.webhook_id = $2 and d.facility_id = $3 for update of d`,
      [deliveryId, id, scope.facilityId],
    );
    if (!row)
      throw new AppError('NotFoundError', `Delivery ${deliveryId} of webhook ${id} was not found`);
    if (hook.archivedAt)
      throw new AppError(
        'TransactionLocked',
        'The webhook is archived: unarchive it to send again',
      );
    if (row.state !== 'failed')
      throw new AppError(
        'TransactionLocked',
        row.state === 'pending'
          ? 'The delivery is still being tried'
          : 'The delivery was received: it is not sent again',
      );
    await tx.query(
      `update webhook_deliveries
          set state = 'pending', next_attempt_at = now(), retries_from = attempts
        where id = $1`,
      [deliveryId],
    );
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: 'Webhook',
      action: 'Redeliver',
      entityId: id,
      reason,
      newValues: { deliveryId, eventId: Number(row.event_id), event: row.event, url: hook.url },
    });
    const [delivery] = await readDeliveries(tx, scope, id, { deliveryId });
    return delivery!;
  });
}

/**
 * Removes the deliveries delivered longer ago than the retention, with their tries, and then
 * the events no delivery is left of; a failed or pending delivery stays, and its event with it.
 * Answers how many deliveries went.
 */
export async function removeDeliveredWebhooks(db: Db, retentionDays: number): Promise<number> {
  return db.transaction(async (tx) => {
    const old = await tx.query<{ id: string; event_id: string }>(
      `select id, event_id from webhook_deliveries
        where state = 'delivered' and delivered_at < now() - make_interval(days => $1::int)
        limit 10000`,
      [retentionDays],
    );
    if (old.length === 0) return 0;
    const ids = old.map((d) => d.id);
    await tx.query('delete from webhook_attempts where delivery_id = any($1::bigint[])', [ids]);
    await tx.query('delete from webhook_deliveries where id = any($1::bigint[])', [ids]);
    await tx.query(
      `delete from webhook_events e
        where e.id = any($1::bigint[])
          and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)`,
      [[...new Set(old.map((d) => d.event_id))]],
    );
    return old.length;
  });
}
