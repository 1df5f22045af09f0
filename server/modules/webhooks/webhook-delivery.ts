import { createHmac } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { SIGNATURE_HEADER } from '#core/schemas/webhooks.schemas.ts';
import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/db.ts';
import type { JobLog } from '#server/jobs/worker.ts';
import { decryptSetting } from '#server/util/setting-secrets.ts';
import { guardedLookup, hostProblem, TargetRefused } from './webhook-targets.ts';

// Not an ES import of node:http, which loads Node's fetch at every start (metrics.ts).
const { request: httpRequest } = process.getBuiltinModule('node:http');

/*
 * The webhook delivery worker (issue 33), one per app instance beside the job worker, polling
 * the outbox the way that worker polls its queue: claim what is due, post it, record the try.
 * A claim moves the delivery's next_attempt_at past the receiver's timeout, in a transaction of
 * its own, so that no transaction stays open while a receiver answers (PGlite has one connection)
 * and another instance does not post it meanwhile. Deliveries of one hook for one record go one
 * at a time, oldest event first: a later one waits until the earlier is delivered or given up.
 */

export interface WebhookDeliveryOptions {
  pollMs: number;
  timeoutMs: number;
  /** The wait before each retry; after the last, the delivery is given up. */
  retryWaitsMs: readonly number[];
  log: JobLog;
}

export function deliveryOptionsOf(config: Config, log: JobLog): WebhookDeliveryOptions {
  return {
    pollMs: config.WEBHOOK_POLL_SECONDS * 1000,
    timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
    retryWaitsMs: config.WEBHOOK_RETRY_SECONDS.map((s) => s * 1000),
    log,
  };
}

type KeyConfig = Pick<Config, 'SETTINGS_SECRET_KEY' | 'DATA_DIR' | 'WEBHOOK_ALLOWED_HOSTS'>;

/** How many deliveries one round claims; each is for a different hook and record. */
const BATCH = 20;

interface Claimed {
  id: string;
  event_id: string;
  attempts: number;
  /** The tries made before an administrator sent it again: the retry waits count from there. */
  retries_from: number;
  url: string;
  secret_encrypted: string;
  event: string;
  record_type: string;
  record_id: number;
  payload: Record<string, unknown>;
  occurred_at: Date | string;
  facility_id: number;
  plan_id: number;
}

/**
 * The signature header's value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` keyed
 * with the hook's secret. The time inside what is signed lets a receiver refuse an old body
 * played again.
 */
export function signBody(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

async function claim(db: Db, leaseMs: number): Promise<Claimed[]> {
  return db.transaction(async (tx) => {
    const due = await tx.query<Claimed>(
      `select d.id, d.event_id, d.attempts, d.retries_from, w.url, w.secret_encrypted, e.event, e.record_type,
              e.record_id, e.payload, e.occurred_at, e.facility_id, f.plan_id
         from webhook_deliveries d
         join webhooks w on w.id = d.webhook_id
         join webhook_events e on e.id = d.event_id
         join facilities f on f.id = e.facility_id
        where d.state = 'pending' and d.next_attempt_at <= now() and w.archived_at is null
          and not exists (
            select 1 from webhook_deliveries p
             where p.webhook_id = d.webhook_id and p.record_key = d.record_key
               and p.state = 'pending' and p.event_id < d.event_id)
        order by d.event_id
        limit ${BATCH}
        for update of d skip locked`,
    );
    if (due.length > 0)
      await tx.query(
        `update webhook_deliveries
            set next_attempt_at = now() + make_interval(secs => $2::float8 / 1000)
          where id = any($1::bigint[])`,
        [due.map((d) => d.id), leaseMs],
      );
    return due;
  });
}

interface Outcome {
  status: number | null;
  error: string | null;
  ms: number;
}

async function post(config: KeyConfig, d: Claimed, timeoutMs: number): Promise<Outcome> {
  const body = JSON.stringify({
    id: Number(d.event_id),
    event: d.event,
    occurredAt: new Date(d.occurred_at).toISOString(),
    planId: d.plan_id,
    facilityId: d.facility_id,
    record: { type: d.record_type, id: d.record_id },
    data: d.payload,
  });
  const started = Date.now();
  try {
    // Checked again at each try: WEBHOOK_ALLOWED_HOSTS may have changed since the hook was saved.
    const refused = hostProblem(d.url, config.WEBHOOK_ALLOWED_HOSTS);
    if (refused) throw new TargetRefused(refused);
    const secret = decryptSetting(config, d.secret_encrypted);
    const status = await postJson(d.url, body, timeoutMs, config.WEBHOOK_ALLOWED_HOSTS, {
      'user-agent': 'Carryover-Webhooks',
      'x-carryover-event': d.event,
      'x-carryover-delivery': String(d.id),
      [SIGNATURE_HEADER]: signBody(secret, body, Math.floor(Date.now() / 1000)),
    });
    const ok = status >= 200 && status < 300;
    return {
      status,
      error: ok ? null : `The receiver answered HTTP ${status}`,
      ms: Date.now() - started,
    };
  } catch (error) {
    return { status: null, error: whyFailed(error), ms: Date.now() - started };
  }
}

/**
 * Posts a JSON body and answers the status; redirects are not followed. node:http rather than
 * fetch, for its `lookup`: the addresses checked are the ones connected to.
 */
function postJson(
  url: string,
  body: string,
  timeoutMs: number,
  allowed: readonly string[] | undefined,
  headers: Record<string, string>,
): Promise<number> {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        lookup: guardedLookup(allowed),
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function whyFailed(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 500);
  const cause = error.cause as { code?: string; name?: string } | undefined;
  // An aborted request carries the timeout as its cause.
  if (error.name === 'TimeoutError' || cause?.name === 'TimeoutError')
    return 'The receiver did not answer in time';
  const code = (error as NodeJS.ErrnoException).code ?? cause?.code;
  const text = code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  return text.slice(0, 500);
}

async function record(
  db: Db,
  d: Claimed,
  outcome: Outcome,
  retryWaitsMs: readonly number[],
): Promise<void> {
  const attempt = d.attempts + 1;
  const delivered = outcome.error === null;
  const wait = retryWaitsMs[attempt - 1 - d.retries_from];
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into webhook_attempts (delivery_id, attempt, status, error, duration_ms)
       values ($1, $2, $3, $4, $5)`,
      [d.id, attempt, outcome.status, outcome.error, outcome.ms],
    );
    await tx.query(
      `update webhook_deliveries
          set attempts = $2,
              state = case when $3::boolean then 'delivered'
                           when $4::float8 is null then 'failed' else 'pending' end,
              delivered_at = case when $3::boolean then now() end,
              next_attempt_at = case when $4::float8 is null then next_attempt_at
                                     else now() + make_interval(secs => $4::float8 / 1000) end
        where id = $1`,
      [d.id, attempt, delivered, delivered ? null : (wait ?? null)],
    );
  });
}

export interface WebhookDeliveryWorker {
  /** Stops polling and waits for the round in progress: no timer is left behind. */
  stop(): Promise<void>;
}

export function startWebhookDelivery(
  db: Db,
  config: KeyConfig,
  options: WebhookDeliveryOptions,
): WebhookDeliveryWorker {
  const { pollMs, timeoutMs, retryWaitsMs, log } = options;
  // Longer than a post can take, so that a claim outlives its post.
  const leaseMs = timeoutMs + 30_000;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> | undefined;

  const once = async (): Promise<boolean> => {
    const due = await claim(db, leaseMs);
    await Promise.all(
      due.map(async (d) => {
        const outcome = await post(config, d, timeoutMs);
        await record(db, d, outcome, retryWaitsMs);
        if (outcome.error)
          log.warn(
            { deliveryId: d.id, event: d.event, attempt: d.attempts + 1, error: outcome.error },
            'webhook delivery failed',
          );
      }),
    );
    return due.length > 0;
  };

  const schedule = (ms: number) => {
    if (stopping) return;
    timer = setTimeout(() => {
      timer = undefined;
      round = once()
        .catch((error: unknown) => {
          if (!stopping) log.error({ err: error }, 'webhook delivery round failed');
          return false;
        })
        .then((busy) => schedule(busy ? 0 : pollMs))
        .finally(() => {
          round = undefined;
        });
    }, ms);
  };
  schedule(0);

  return {
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await round;
    },
  };
}
