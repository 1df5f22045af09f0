import type { TWebhookEvent, TWebhookRecordType } from '#core/schemas/webhooks.schemas.ts';
import type { Queryable } from '../db/db.ts';
import { jsonRows, recordsetOf } from '../db/json-rows.ts';

/*
 * Events for other systems (issue 33), written to the webhook outbox in the transaction of the
 * change that causes them: the event exists exactly when the change committed, and a rollback
 * takes both away. The delivery worker (server/modules/webhooks) posts them after the commit.
 */

export interface RecordEvent {
  facilityId: number;
  event: TWebhookEvent;
  /** The record the event is about: deliveries for one record keep their order. */
  record: { type: TWebhookRecordType; id: number };
  /** What the receiver learns besides the record; ids and words, never a secret. */
  data: Record<string, unknown>;
}

/**
 * Whether a live hook of the facility asks for the event: an event whose data costs a read is
 * looked up only then (most facilities have no hooks; a failing result is on the entry path).
 */
export async function isEventAskedFor(
  tx: Queryable,
  facilityId: number,
  event: TWebhookEvent,
): Promise<boolean> {
  const rows = await tx.query(
    `select 1 from webhooks
      where facility_id = $1 and archived_at is null and $2::text = any(events) limit 1`,
    [facilityId, event],
  );
  return rows.length > 0;
}

/**
 * Puts the event in the outbox with one delivery per live hook of the facility that asks for
 * it. Without such a hook nothing is written: the outbox holds only what someone will receive.
 */
export function emitRecordEvent(tx: Queryable, e: RecordEvent): Promise<void> {
  return emitRecordEvents(tx, e.facilityId, e.event, [e]);
}

/**
 * emitRecordEvent of several events of one kind in one facility, in one statement whatever
 * their number (issue 34: the failing results of one entry), numbered in the order given.
 */
export async function emitRecordEvents(
  tx: Queryable,
  facilityId: number,
  event: TWebhookEvent,
  events: readonly Pick<RecordEvent, 'record' | 'data'>[],
): Promise<void> {
  if (events.length === 0) return;
  await tx.query(
    `with hooks as (
       select id from webhooks
        where facility_id = $1::int and archived_at is null and $2::text = any(events)
     ), given as (
       select g.record_type, g.record_id, g.payload, g.ordinality
         from ${recordsetOf('webhook_events', 3, 'g')}
     ), event as (
       insert into webhook_events (facility_id, event, record_type, record_id, payload)
       select $1::int, $2::text, record_type, record_id, payload from given
        where exists (select 1 from hooks)
        order by ordinality
       returning id, record_type, record_id
     )
     insert into webhook_deliveries (webhook_id, event_id, facility_id, record_key)
     select hooks.id, event.id, $1::int, event.record_type || ':' || event.record_id
       from hooks cross join event`,
    [
      facilityId,
      event,
      jsonRows(
        events.map((e) => ({
          record_type: e.record.type,
          record_id: e.record.id,
          payload: e.data,
        })),
      ),
    ],
  );
}
