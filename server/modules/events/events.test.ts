import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { policyApprover, type Signer } from '#server/test/policy-in-force.ts';
import { ADMIN, facilityPath, startFacilityTestServer } from '#server/test/test-server.ts';

// Heartbeats twice a second, so that an ended session is seen ending within the test.
const t = useFacilityTestServer({ EVENTS_HEARTBEAT_SECONDS: '0.5' });

interface Heard {
  event: string;
  data: Body;
}

/** An open event stream as a browser holds it: every event heard so far, in order. */
async function listen(path: string, token: string) {
  const abort = new AbortController();
  const response = await fetch(`${t.server.url}${path}/events`, {
    headers: { token, 'x-background-refresh': 'true' },
    signal: abort.signal,
  });
  const heard: Heard[] = [];
  let beats = 0;
  let isEnded = false;
  const reading = (async () => {
    if (!response.ok || !response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      const reader = response.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === 'heartbeat') beats += 1;
          else if (event && data) heard.push({ event, data: JSON.parse(data) as Body });
        }
      }
    } catch {
      // Aborted by the test.
    }
    isEnded = true;
  })();
  return {
    response,
    heard,
    beats: () => beats,
    isEnded: () => isEnded,
    async until(match: (heard: Heard) => boolean, ms = 5000): Promise<Heard> {
      const started = Date.now();
      for (;;) {
        const found = heard.find(match);
        if (found) return found;
        if (Date.now() - started > ms)
          throw new Error(`not heard in ${ms} ms: ${JSON.stringify(heard)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      abort.abort();
      await reading;
    },
  };
}

async function memberOf(facilityId: number) {
  const user = await buildUser(t.server.db, {
    facilityIds: [facilityId],
    permissions: permissionsWith({ CleaningPolicy: ['Get'] }),
  });
  return t.server.login(user.username, user.password);
}

describe('GET {F}/events', () => {
  let F2: string;
  let userA: string;
  let userOther: string;
  let approverB: Signer;
  const streams: Awaited<ReturnType<typeof listen>>[] = [];

  beforeAll(async () => {
    F2 = await facilityPath(t.server, 1);
    const facility2 = Number(/facilities\/(\d+)/.exec(F2)?.[1]);
    userA = await memberOf(t.facilityId);
    userOther = await memberOf(facility2);
    approverB = await policyApprover(t.server, t.F);
  });
  // Each test ends with no one listening, so the next starts listening afresh.
  afterEach(async () => {
    for (const stream of streams.splice(0)) await stream.close();
  });

  it('is refused (403) to a user without a role in the facility, by token or cookie, and 401 without a session', async () => {
    const refused = await fetch(`${t.server.url}${t.F}/events`, { headers: { token: userOther } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ errName: 'NotAllowed' });
    const anonymous = await fetch(`${t.server.url}${t.F}/events`);
    expect(anonymous.status).toBe(401);
    // A browser's EventSource sends the session cookie only: it decides the same way.
    const byCookie = (token: string) =>
      fetch(`${t.server.url}${t.F}/events`, { headers: { cookie: `connect.sid=${token}` } });
    expect((await byCookie(userOther)).status).toBe(403);
    const allowed = await byCookie(userA);
    expect(allowed.status).toBe(200);
    await allowed.body?.cancel();
  });

  it('leaves the idle clock alone: opening the stream is no sign of the user', async () => {
    const user = await buildUser(t.server.db, { facilityIds: [t.facilityId] });
    const token = await t.server.login(user.username, user.password);
    await t.server.db.query(
      `update sessions set last_seen_at = now() - interval '5 minutes' where user_id = $1`,
      [user.id],
    );
    const idleSince = async () =>
      (
        await t.server.db.query<{ at: string }>(
          `select last_seen_at::text as at from sessions where user_id = $1 and ended_at is null`,
          [user.id],
        )
      )[0]?.at;
    const before = await idleSince();
    // As a browser's EventSource asks: the cookie and Accept, no header of the app's own.
    const stream = await fetch(`${t.server.url}${t.F}/events`, {
      headers: { cookie: `connect.sid=${token}`, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
    expect(await idleSince()).toBe(before);
  });

  it("tells A within seconds that B signed a record of A's facility, and tells the other facility nothing", async () => {
    const a = await listen(t.F, userA);
    const other = await listen(F2, userOther);
    streams.push(a, other);
    expect(a.response.status).toBe(200);
    expect(a.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await a.until((h) => h.event === 'ready');
    await other.until((h) => h.event === 'ready');

    // The administrator edits the microbial limit policy and submits it; B approves it.
    const path = `${t.F}/microbial-cleaning-limit-policies`;
    const current = await t.call('GET', path);
    const saved = await t.call('POST', path, {
      version: current.body.version,
      rinseLimit: 12,
      reason: 'WFI rinse',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const ref = { documentType: 'CleaningLimitPolicy', documentId: saved.body.id };
    const submit = await t.call('POST', `${t.F}/signatures`, {
      ...ref,
      action: 'Submit',
      password: ADMIN.password,
    });
    expect(submit.status, JSON.stringify(submit.body)).toBe(200);
    const heardBefore = a.heard.length;
    const signedAt = Date.now();
    const approve = await t.server.request<Body>('POST', `${t.F}/signatures`, {
      token: approverB.token,
      body: { ...ref, action: 'Approve', password: approverB.password },
    });
    expect(approve.status, JSON.stringify(approve.body)).toBe(200);
    expect(approve.body.document.status).toBe('Approved');

    const [row] = await t.server.db.query<{ table_name: string; version: number }>(
      `select table_name, version from record_versions
        where record_id = $1 and facility_id = $2 order by id desc limit 1`,
      [saved.body.id, t.facilityId],
    );
    const heard = await a.until(
      (h, index = a.heard.indexOf(h)) =>
        index >= heardBefore &&
        h.event === 'change' &&
        h.data.kind === row!.table_name &&
        h.data.id === saved.body.id &&
        h.data.version === row!.version,
    );
    expect(Date.now() - signedAt).toBeLessThan(5000);
    // Ids, kinds and versions only: never the record's content.
    expect(Object.keys(heard.data).sort()).toEqual(['id', 'kind', 'version']);

    // The other facility's stream heard its own ready and nothing of facility 1.
    expect(other.heard.filter((h) => h.event === 'change')).toEqual([]);
  });

  it("tells the other facility's user what changes in theirs from the moment they listen, nothing earlier", async () => {
    const create = async (name: string) => {
      const res = await t.call('POST', `${F2}/apis`, { name });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.result.id as number;
    };
    const before = await create(`Written before listening ${Date.now()}`);
    const other = await listen(F2, userOther);
    streams.push(other);
    await other.until((h) => h.event === 'ready');
    const after = await create(`Written while listening ${Date.now()}`);
    await other.until((h) => h.event === 'change' && h.data.id === after);
    expect(other.heard.filter((h) => h.event === 'change' && h.data.id === before)).toEqual([]);
    // What came before listening is read by the screens as they open, not announced.
    expect(other.heard.filter((h) => h.event === 'change').map((h) => h.data.id)).toEqual([after]);
  });

  it('beats while the session holds, and ends within a beat once the user signs out', async () => {
    const user = await buildUser(t.server.db, { facilityIds: [t.facilityId] });
    const token = await t.server.login(user.username, user.password);
    const stream = await listen(t.F, token);
    streams.push(stream);
    await stream.until((h) => h.event === 'ready');
    await expect.poll(() => stream.beats(), { timeout: 5000 }).toBeGreaterThan(1);
    expect(stream.isEnded()).toBe(false);
    const out = await t.server.request('POST', '/api/v2/auth/logout', { token, body: { token } });
    expect(out.status).toBe(200);
    await expect.poll(() => stream.isEnded(), { timeout: 5000 }).toBe(true);
    // Told why, so that the browser does not come back with the same session.
    expect(stream.heard.at(-1)?.event).toBe('end');
  });

  it('ends within a beat once the user loses the facility', async () => {
    const facility2 = Number(/facilities\/(\d+)/.exec(F2)?.[1]);
    const user = await buildUser(t.server.db, { facilityIds: [t.facilityId, facility2] });
    const token = await t.server.login(user.username, user.password);
    const stream = await listen(t.F, token);
    streams.push(stream);
    await stream.until((h) => h.event === 'ready');

    const before = await t.call('GET', `/api/v2/users/${user.id}`);
    expect(before.status).toBe(200);
    const kept = (before.body.facilityRoles as { facilityId: number; roleIds: number[] }[])
      .filter((grant) => grant.facilityId === facility2)
      .map(({ facilityId, roleIds }) => ({ facilityId, roleIds }));
    const edit = await t.call('POST', `/api/v2/users/${user.id}`, {
      reason: 'Moved to the other site',
      version: before.body.version,
      facilityRoles: kept,
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    await expect.poll(() => stream.isEnded(), { timeout: 5000 }).toBe(true);
    expect(stream.heard.at(-1)?.event).toBe('end');
    const again = await fetch(`${t.server.url}${t.F}/events`, { headers: { token } });
    expect(again.status).toBe(403);
  });
});

describe('a server shutting down', () => {
  it('ends the open streams instead of waiting for them', async () => {
    const own = await startFacilityTestServer();
    const response = await fetch(`${own.server.url}${own.F}/events`, {
      headers: { token: own.token },
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    const closed = own.server.close().then(() => 'closed');
    const timeout = new Promise((resolve) => setTimeout(resolve, 10_000, 'still open'));
    expect(await Promise.race([closed, timeout])).toBe('closed');
    const rest = await reader.read().catch(() => ({ done: true }));
    expect(rest.done).toBe(true);
  });
});
