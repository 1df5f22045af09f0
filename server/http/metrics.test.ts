import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFacilityTestServer,
  startTestServer,
  type FacilityTestServer,
} from '../test/test-server.ts';
import { enqueueJob } from '../jobs/jobs.ts';
import { metricsAddress } from './metrics.ts';

let t: FacilityTestServer;
let metricsUrl: string;
beforeAll(async () => {
  t = await startFacilityTestServer({ METRICS_PORT: '0' });
  const address = metricsAddress(t.server.app);
  if (!address) throw new Error('no metrics listener');
  metricsUrl = `http://127.0.0.1:${address.port}/metrics`;
});
afterAll(async () => {
  await t?.server.close();
});

/** The value of the one sample named `name` whose labels include all of `labels`. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const inside = line.slice(name.length).match(/^\{([^}]*)\}/)?.[1] ?? '';
    const have = inside.split(',');
    if (wanted.every((w) => have.includes(w))) return Number(line.split(' ').at(-1));
  }
  return undefined;
}

const DURATION = 'carryover_http_request_duration_seconds';

describe('metrics', () => {
  it('count requests by route pattern and status, with their durations', async () => {
    for (let i = 0; i < 3; i += 1)
      expect((await t.server.request('GET', '/api/v2/health/live')).status).toBe(200);
    for (let i = 0; i < 2; i += 1)
      expect((await t.server.request('GET', '/api/v2/no-such-route')).status).toBe(404);
    const listed = await t.server.request('GET', `${t.F}/equipments`, { token: t.token });
    expect(listed.status).toBe(200);
    const refused = await t.server.request('GET', `${t.F}/equipments`);
    expect(refused.status).toBe(401);

    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const text = await res.text();
    const live = { method: 'GET', route: '/api/v2/health/live', status: '200' };
    expect(sample(text, `${DURATION}_count`, live)).toBe(3);
    expect(sample(text, `${DURATION}_sum`, live)).toBeGreaterThan(0);
    expect(sample(text, `${DURATION}_bucket`, { ...live, le: '+Inf' })).toBe(3);
    expect(sample(text, `${DURATION}_count`, { route: '(not found)', status: '404' })).toBe(2);
    // The route as declared, not the URL asked for (a series per facility and record otherwise).
    const route = '/api/v2/plans/:plan/facilities/:facility/equipments';
    expect(sample(text, `${DURATION}_count`, { route, status: '200' })).toBe(1);
    expect(sample(text, `${DURATION}_count`, { route, status: '401' })).toBe(1);
    expect(text).not.toContain(`route="${t.F}`);
  });

  it('tell the jobs by state, the database’s load and the event-loop delay', async () => {
    const states = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'];
    const jobs = (text: string) =>
      states.reduce((sum, state) => sum + sample(text, 'carryover_jobs', { state })!, 0);
    const before = jobs(await (await fetch(metricsUrl)).text());
    // One job more, in whichever state the worker has it by the next scrape.
    await t.server.db.transaction((tx) => enqueueJob(tx, t.facilityId, 'metrics.unknown-kind', {}));
    const text = await (await fetch(metricsUrl)).text();
    for (const state of states)
      expect(sample(text, 'carryover_jobs', { state }), state).toBeGreaterThanOrEqual(0);
    expect(jobs(text)).toBe(before + 1);
    if (t.server.db.kind === 'postgres') {
      expect(sample(text, 'carryover_db_pool_clients', { state: 'total' })).toBeGreaterThan(0);
      expect(sample(text, 'carryover_db_pool_clients', { state: 'waiting' })).toBe(0);
    } else {
      expect(sample(text, 'carryover_db_queue_length', {})).toBeGreaterThanOrEqual(0);
    }
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds', {})).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes', {})).toBeGreaterThan(0);
  });

  it('are only on their own port, and only at /metrics', async () => {
    expect((await t.server.request('GET', '/metrics')).status).toBe(404);
    expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).toBe(404);
  });

  it('are off without METRICS_PORT, and stop with the app', async () => {
    const plain = await startTestServer();
    try {
      expect(plain.config.METRICS_PORT).toBeUndefined();
      expect(metricsAddress(plain.app)).toBeUndefined();
    } finally {
      await plain.close();
    }
    const other = await startTestServer({ METRICS_PORT: '0' });
    const url = `http://127.0.0.1:${metricsAddress(other.app)!.port}/metrics`;
    expect((await fetch(url)).status).toBe(200);
    await other.close();
    await expect(fetch(url)).rejects.toThrow();
  });
});
