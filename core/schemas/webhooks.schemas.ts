import { z } from 'zod';
import { ZFacilityParams } from './auth.schemas.ts';
import { ZId, ZListQuery, ZPage, ZReason } from './common.schemas.ts';
import type { TControlledDocumentType } from './signatures.schemas.ts';

/**
 * The events another system may subscribe to (issue 33). Each names the record it is about; the
 * deliveries of one hook for one record arrive in the order the changes committed.
 */
export const WEBHOOK_EVENTS = [
  'run.releaseFlagChanged',
  'result.failed',
  'equipment.released',
  'limits.changed',
  'record.approved',
  'changeAssessment.approved',
] as const;
export type TWebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<TWebhookEvent, string> = {
  'run.releaseFlagChanged': "A verification run's release flag changed",
  'result.failed': 'A sample result failed its limit',
  'equipment.released': 'Equipment was released',
  'limits.changed': 'New limits were put in force',
  'record.approved': 'A controlled record was approved',
  'changeAssessment.approved': 'A change assessment was approved',
};

/** The header carrying the body's HMAC-SHA256 (see README: Webhooks). */
export const SIGNATURE_HEADER = 'x-carryover-signature';

const ZWebhookUrl = z
  .string({ error: 'Please enter the URL' })
  .trim()
  .min(1, 'Please enter the URL')
  .max(2000, 'A URL is at most 2000 characters')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'Enter an http:// or https:// URL');

const ZWebhookEvents = z
  .array(z.enum(WEBHOOK_EVENTS, { error: 'Unknown event' }), {
    error: 'Choose at least one event',
  })
  .min(1, 'Choose at least one event')
  .refine((events) => new Set(events).size === events.length, 'An event is listed twice');

/** A secret the receiver chose; long enough that guessing it is no way to forge a body. */
const ZWebhookSecret = z
  .string()
  .min(16, 'A secret has at least 16 characters')
  .max(200, 'A secret is at most 200 characters');

/** A hook as listed: never its secret, which is answered once when it is set. */
export const ZWebhook = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  archivedAt: z.string().nullable(),
  archiveReason: z.string().nullable(),
  /** Deliveries waiting (first try or a retry) and given up, for the list. */
  pending: z.number().int(),
  failed: z.number().int(),
  lastDeliveredAt: z.string().nullable(),
});
export type TWebhook = z.infer<typeof ZWebhook>;

export const ZWebhookListQuery = ZListQuery.extend({
  archived: z.enum(['true', 'false']).optional(),
});

export const ZWebhookParams = ZFacilityParams.extend({ id: ZId });

/** `secret` is optional: without one the server makes a random one. */
export const ZCreateWebhookRequest = z.object({
  url: ZWebhookUrl,
  events: ZWebhookEvents,
  secret: ZWebhookSecret.optional(),
});
export type TCreateWebhookRequest = z.infer<typeof ZCreateWebhookRequest>;

/**
 * An edit names the version it was made from and why. `secret` sets a new secret;
 * `rotateSecret` has the server make one (answered once).
 */
export const ZUpdateWebhookRequest = z
  .object({
    url: ZWebhookUrl.optional(),
    events: ZWebhookEvents.optional(),
    secret: ZWebhookSecret.optional(),
    rotateSecret: z.literal(true).optional(),
    reason: ZReason,
    version: z.number().int().min(1),
  })
  .refine((body) => !(body.secret && body.rotateSecret), {
    message: 'Give a secret or ask for a new one, not both',
    path: ['secret'],
  });
export type TUpdateWebhookRequest = z.infer<typeof ZUpdateWebhookRequest>;

export const ZArchiveWebhookRequest = z.object({
  reason: ZReason,
  version: z.number().int().min(1),
});

/** The one answer that carries the secret: a create, or an edit that set or made one. */
export const ZWebhookWithSecret = z.object({
  result: ZWebhook,
  secret: z.string().optional(),
});

/**
 * The type of the record an event is about, in one casing (PascalCase) in every body: a
 * controlled record's document type (SOP, Run, ChangeAssessment…) or one of these. A run is
 * `Run` whether its release flag moved or its approval was signed, so its events keep one order.
 */
export const WEBHOOK_RECORD_TYPES = ['Run', 'SampleResult', 'Equipment', 'FacilityLimits'] as const;
export type TWebhookRecordType = (typeof WEBHOOK_RECORD_TYPES)[number] | TControlledDocumentType;

export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;

export const ZDeliveryParams = ZWebhookParams.extend({ deliveryId: ZId });

/** Sending a delivery that was given up again: why (it is audited). */
export const ZRedeliverRequest = z.object({ reason: ZReason });

export const ZWebhookAttempt = z.object({
  attempt: z.number().int(),
  at: z.string(),
  /** The receiver's HTTP status, or null when none came (refused, timed out). */
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  ms: z.number().int(),
});

export const ZWebhookDelivery = z.object({
  id: z.number().int(),
  eventId: z.number().int(),
  event: z.enum(WEBHOOK_EVENTS),
  record: z.object({ type: z.string(), id: z.number().int() }),
  /** The record in words, as the audit trail names it ('Run ‘ST-0001 run 2’'). */
  subject: z.string(),
  occurredAt: z.string(),
  state: z.enum(DELIVERY_STATES),
  attempts: z.array(ZWebhookAttempt),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

export const ZWebhookDeliveryPage = ZPage(ZWebhookDelivery);
