import { ZListQuery } from '#core/schemas/common.schemas.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  ZArchiveWebhookRequest,
  ZCreateWebhookRequest,
  ZDeliveryParams,
  ZRedeliverRequest,
  ZWebhookDelivery,
  ZUpdateWebhookRequest,
  ZWebhook,
  ZWebhookDeliveryPage,
  ZWebhookListQuery,
  ZWebhookParams,
  ZWebhookWithSecret,
  WEBHOOK_EVENTS,
} from '#core/schemas/webhooks.schemas.ts';
import { ZPage } from '#core/schemas/common.schemas.ts';
import type { FastifyRequest } from 'fastify';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { registerHousekeeping } from '#server/jobs/jobs.ts';
import { actorOf } from '#server/http/session-guard.ts';
import {
  deliveryOptionsOf,
  startWebhookDelivery,
  type WebhookDeliveryWorker,
} from './webhook-delivery.ts';
import {
  createWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  removeDeliveredWebhooks,
  setWebhookArchived,
  updateWebhook,
} from './webhooks.service.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const tags = ['Webhooks'];

const scopeOf = (request: FastifyRequest) => {
  const params = request.params as { plan: number; facility: number };
  return { planId: params.plan, facilityId: params.facility };
};

/**
 * Webhooks of a facility (issue 33) and this instance's delivery worker. Reading them and their
 * delivery log takes Facility Get; adding, editing and archiving Facility Modify, the right that
 * administers the facility's own configuration.
 */
export function registerWebhookRoutes({ app, db, config, permit }: AppContext): void {
  registerHousekeeping('webhookRetention', async (pool) => {
    const removed = await removeDeliveredWebhooks(pool, config.WEBHOOK_RETENTION_DAYS);
    if (removed > 0)
      app.log.info(
        { removed, retentionDays: config.WEBHOOK_RETENTION_DAYS },
        'delivered webhook events past their retention removed',
      );
  });
  let worker: WebhookDeliveryWorker | undefined;
  app.addHook('onReady', async () => {
    worker = startWebhookDelivery(db, config, deliveryOptionsOf(config, app.log));
  });
  app.addHook('onClose', async () => {
    await worker?.stop();
  });

  const r = typed(app);
  const call = (request: FastifyRequest) => ({
    actor: actorOf(request),
    scope: scopeOf(request),
    config,
  });

  r.get(
    `${F}/webhooks`,
    {
      preHandler: permit('Facility', 'Get'),
      schema: {
        tags,
        summary: 'The webhooks of the facility (Facility Get)',
        description: `Live hooks, or archived ones with \`archived=true\`; \`search\` looks in the URL and events. Never a secret. Events: ${WEBHOOK_EVENTS.map((e) => `\`${e}\``).join(', ')}.`,
        params: ZFacilityParams,
        querystring: ZWebhookListQuery,
        response: { 200: ZPage(ZWebhook) },
      },
    },
    async (request) => listWebhooks(db, request.params.facility, request.query),
  );

  r.get(
    `${F}/webhooks/:id`,
    {
      preHandler: permit('Facility', 'Get'),
      schema: {
        tags,
        summary: 'One webhook (Facility Get)',
        params: ZWebhookParams,
        response: { 200: ZWebhook },
      },
    },
    async (request) => getWebhook(db, request.params.facility, request.params.id),
  );

  r.post(
    `${F}/webhooks`,
    {
      preHandler: permit('Facility', 'Modify'),
      schema: {
        tags,
        summary: 'Add a webhook (Facility Modify)',
        description:
          'An http:// or https:// `url` and the `events` it receives. `secret` (16 to 200 characters) is optional: without it the server makes one. The answer carries the secret once, in `secret`; it is kept encrypted and never answered again. Each body is signed with it (HMAC-SHA256, header `X-Carryover-Signature: t=<unix seconds>,v1=<hex>` over `<t>.<body>`).',
        params: ZFacilityParams,
        body: ZCreateWebhookRequest,
        response: { 200: ZWebhookWithSecret },
      },
    },
    async (request) => createWebhook(db, call(request), request.body),
  );

  r.post(
    `${F}/webhooks/:id`,
    {
      preHandler: permit('Facility', 'Modify'),
      schema: {
        tags,
        summary: 'Edit a webhook: URL, events, secret (Facility Modify)',
        description:
          'Needs a reason and the `version` the edit was made from (a stale one gets 409). `secret` sets a new secret (write-only); `rotateSecret: true` has the server make one, answered once in `secret`. Events added apply to changes from now on.',
        params: ZWebhookParams,
        body: ZUpdateWebhookRequest,
        response: { 200: ZWebhookWithSecret },
      },
    },
    async (request) => updateWebhook(db, call(request), request.params.id, request.body),
  );

  r.put(
    `${F}/webhooks/:id/archive`,
    {
      preHandler: permit('Facility', 'Modify'),
      schema: {
        tags,
        summary: 'Archive a webhook (Facility Modify)',
        description:
          'Stops its deliveries; those waiting stay in its log and go out, in order, if it is unarchived. Needs a reason and the `version`.',
        params: ZWebhookParams,
        body: ZArchiveWebhookRequest,
        response: { 200: ZWebhook },
      },
    },
    async (request) => setWebhookArchived(db, call(request), request.params.id, request.body, true),
  );

  r.put(
    `${F}/webhooks/:id/unarchive`,
    {
      preHandler: permit('Facility', 'Modify'),
      schema: {
        tags,
        summary: 'Unarchive a webhook (Facility Modify)',
        params: ZWebhookParams,
        body: ZArchiveWebhookRequest,
        response: { 200: ZWebhook },
      },
    },
    async (request) =>
      setWebhookArchived(db, call(request), request.params.id, request.body, false),
  );

  r.get(
    `${F}/webhooks/:id/deliveries`,
    {
      preHandler: permit('Facility', 'Get'),
      schema: {
        tags,
        summary: 'The delivery log of a webhook (Facility Get)',
        description:
          'Newest first: each event with its state (`pending`, `delivered`, `failed`: given up after the last retry), every try (time, HTTP status or error, duration) and when the next try is due.',
        params: ZWebhookParams,
        querystring: ZListQuery.pick({ pageNumber: true, pageLimit: true }),
        response: { 200: ZWebhookDeliveryPage },
      },
    },
    async (request) => listDeliveries(db, scopeOf(request), request.params.id, request.query),
  );

  r.post(
    `${F}/webhooks/:id/deliveries/:deliveryId/redeliver`,
    {
      preHandler: permit('Facility', 'Modify'),
      schema: {
        tags,
        summary: 'Send a delivery that was given up again (Facility Modify)',
        description:
          'Only a `failed` delivery: it is tried again at once, with the retries of a first delivery, and its earlier tries stay in the log. Needs a reason; audited (Webhook / Redeliver). A pending one gets 409 TransactionLocked, and so does a delivered one or one of an archived hook.',
        params: ZDeliveryParams,
        body: ZRedeliverRequest,
        response: { 200: ZWebhookDelivery },
      },
    },
    async (request) =>
      redeliver(
        db,
        call(request),
        request.params.id,
        request.params.deliveryId,
        request.body.reason,
      ),
  );
}
