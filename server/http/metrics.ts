import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as PromClientModule from 'prom-client';
import type { Registry } from 'prom-client';
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import { jobCountsByState } from '../jobs/jobs.ts';

// Not an ES import of node:http: that reads every export of the module, and one of them loads
// Node's fetch (undici), over a tenth of a second of every start for nothing the server uses.
const { createServer } = process.getBuiltinModule('node:http');

/** A scrape waits this long for the job counts; PGlite's one connection may be held by an import. */
const JOBS_TIMEOUT_MS = 2_000;

type PromClient = typeof PromClientModule;

const listeners = new WeakMap<FastifyInstance, Server>();

/** The metrics listener's address once the app is ready (undefined without METRICS_PORT). */
export function metricsAddress(app: FastifyInstance): AddressInfo | undefined {
  const address = listeners.get(app)?.address();
  return address && typeof address === 'object' ? address : undefined;
}

/**
 * The route a request matched, as declared (`/api/v2/plans/:plan/…`): raw URLs would make a
 * series per record. Requests that matched none are a client page or a 404 of the not-found
 * handler.
 */
function routeOf(request: FastifyRequest, reply: FastifyReply): string {
  return request.routeOptions.url ?? (reply.statusCode === 404 ? '(not found)' : '(client page)');
}

function timeout(ms: number): Promise<never> {
  return new Promise((_resolve, reject) => {
    setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref();
  });
}

function registerGauges(
  { Gauge }: PromClient,
  registry: Registry,
  db: Db,
  onError: (error: unknown) => void,
): void {
  new Gauge({
    name: 'carryover_db_pool_clients',
    help: 'Database server pool: clients in all (total), idle, and callers waiting for one',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const load = db.load?.();
      if (!load || !('total' in load)) return;
      this.set({ state: 'total' }, load.total);
      this.set({ state: 'idle' }, load.idle);
      this.set({ state: 'waiting' }, load.waiting);
    },
  });
  new Gauge({
    name: 'carryover_db_queue_length',
    help: 'Embedded database: statements sent to it and not answered yet (one runs at a time)',
    registers: [registry],
    collect() {
      const load = db.load?.();
      if (load && 'queued' in load) this.set(load.queued);
    },
  });
  new Gauge({
    name: 'carryover_jobs',
    help: 'Background jobs in the queue by pg-boss state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      try {
        const counts = await Promise.race([jobCountsByState(db), timeout(JOBS_TIMEOUT_MS)]);
        for (const [state, n] of counts) this.set({ state }, n);
      } catch (error) {
        // No numbers rather than old ones; the rest of the scrape still answers.
        this.reset();
        onError(error);
      }
    },
  });
}

/**
 * With METRICS_PORT, metrics in the Prometheus text format at /metrics on a listener of their
 * own: requests by route and status with their durations, jobs by state, the database's load,
 * and Node's own (event-loop delay, heap, GC). Nothing is collected without it.
 */
export async function registerMetrics(app: FastifyInstance, db: Db, config: Config): Promise<void> {
  const port = config.METRICS_PORT;
  if (port === undefined) return;
  // Loaded only when asked for: a start without metrics does not pay for the library.
  const client = await import('prom-client');
  const { Histogram, Registry } = client;
  const registry = new Registry();
  client.collectDefaultMetrics({ register: registry });
  registerGauges(client, registry, db, (err) =>
    app.log.warn({ err }, 'metrics: job counts not read'),
  );
  const requests = new Histogram({
    name: 'carryover_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status, with their durations',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: request.method,
      route: routeOf(request, reply),
      status: String(reply.statusCode),
    };
    requests.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => {
        app.log.error({ err: error }, 'metrics: scrape failed');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics failed\n');
      },
    );
  });
  listeners.set(app, server);
  // Started with the app (a port in use fails the start), stopped with it.
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: config.METRICS_HOST ?? config.HOST }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    app.log.info({ metrics: metricsAddress(app) }, 'metrics listening');
  });
  app.addHook('onClose', async () => {
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}
