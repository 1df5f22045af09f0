// Requests against the database's own cost: in the same run, a bare Fastify 5 + pg route that
// reads one row by primary key (the anchor) and the app on PostgreSQL, each loaded by autocannon
// at 50 connections. Prints req/s, p99 and the slowest request of the anchor, GET /users/me, and
// a 10-row page of the equipment list of a 100-row and of a 10,000-row facility, each as a ratio
// to the anchor; first the same cases on PGlite, without an anchor (SKIP_PGLITE=1 leaves it out).
// Goals (issue 16): users/me >= 0.8x, a list page >= 0.7x whatever the facility's size; on
// PGlite, no list request over 1 s.
import autocannon from 'autocannon';
import { admin, median, onEachDatabase, signIn } from './bench-fixture.ts';
import { facilityOf, startAnchor } from './pk-anchor.ts';
import { startServerProcess } from './server-process.ts';

// Other work on the machine comes and goes: each case alternates short slices with the anchor,
// and reports the median of the rounds' ratios.
const seconds = Number(process.env.DURATION ?? 3);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONNECTIONS = 50;
const POOL_SIZE = process.env.DB_POOL_SIZE ?? '20';

interface Figures {
  rps: number;
  p99: number;
  /** The slowest request, in ms. */
  max: number;
}

async function load(url: string, headers: Record<string, string> = {}): Promise<Figures> {
  const result = await autocannon({ url, connections: CONNECTIONS, headers, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, max: result.latency.max };
}

/** ROUNDS of the anchor then the case; the medians of each and of the rounds' ratios. */
async function compare(anchorUrl: string, url: string, headers: Record<string, string>) {
  await load(anchorUrl); // warm-up
  await load(url, headers);
  const anchor: Figures[] = [];
  const target: Figures[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    anchor.push(await load(anchorUrl));
    target.push(await load(url, headers));
  }
  const of = (all: Figures[]) => ({
    rps: median(all.map((f) => f.rps)),
    p99: median(all.map((f) => f.p99)),
    max: Math.max(...all.map((f) => f.max)),
  });
  return {
    anchor: of(anchor),
    target: of(target),
    ratio: median(target.map((f, i) => f.rps / anchor[i]!.rps)),
  };
}

function line(label: string, figures: Figures, ratio?: number): string {
  const vs = ratio === undefined ? '' : `  ${ratio.toFixed(2)}x anchor`;
  return `${label.padEnd(34)} ${figures.rps.toFixed(0).padStart(6)} req/s  p99 ${String(figures.p99).padStart(4)} ms  max ${String(figures.max).padStart(5)} ms${vs}`;
}

/** The app's cases: users/me and a page of a 100-row and of a 10,000-row facility. */
async function casesOf(serverUrl: string) {
  const { token } = await signIn(serverUrl);
  const me = (await (
    await fetch(`${serverUrl}/api/v2/users/me`, { headers: { token } })
  ).json()) as { id: number; planId: number };
  const small = await facilityOf(serverUrl, token, me.planId, 100);
  const large = await facilityOf(serverUrl, token, me.planId, 10_000);
  const cases: [string, string][] = [
    ['users/me', `${serverUrl}/api/v2/users/me`],
    ['equipment, 10 of 100', `${small}/equipments?pageLimit=10`],
    ['equipment, 10 of 10,000', `${large}/equipments?pageLimit=10`],
  ];
  return { token, userId: me.id, cases };
}

/**
 * PGlite serves one query at a time and has no comparable anchor: its goal is that no request
 * stalls (issue 16: none over 1 s at 50 connections), so the slowest request of all rounds.
 */
async function measurePglite(label: string, serverUrl: string): Promise<void> {
  const { token, cases } = await casesOf(serverUrl);
  console.log(`${label}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${seconds} s each:`);
  for (const [name, url] of cases) {
    await load(url, { token }); // warm-up
    const rounds: Figures[] = [];
    for (let round = 0; round < ROUNDS; round += 1) rounds.push(await load(url, { token }));
    console.log(
      line(name, {
        rps: median(rounds.map((f) => f.rps)),
        p99: median(rounds.map((f) => f.p99)),
        max: Math.max(...rounds.map((f) => f.max)),
      }),
    );
  }
}

async function measure(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env });
  if (!env.DATABASE_URL) {
    try {
      await measurePglite(label, server.url);
    } finally {
      await server.stop();
    }
    return;
  }
  const anchor = await startAnchor(env.DATABASE_URL, POOL_SIZE);
  try {
    const { token, userId, cases } = await casesOf(server.url);
    const anchorUrl = `${anchor.url}/users/${userId}`;
    console.log(
      `${label}, ${CONNECTIONS} connections, medians of ${ROUNDS} rounds of ${seconds} s each:`,
    );
    for (const [name, url] of cases) {
      const result = await compare(anchorUrl, url, { token });
      console.log(line('anchor (bare Fastify + pg by id)', result.anchor, 1));
      console.log(line(name, result.target, result.ratio));
    }
  } finally {
    await anchor.close();
    await server.stop();
  }
}

await onEachDatabase(measure, { DB_POOL_SIZE: POOL_SIZE });
