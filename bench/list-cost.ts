// The cost of list pages the cache has not seen (issue 34), per request, against the primary-key
// anchor (pk-anchor-server.ts) on the same PostgreSQL database: the Node CPU of the serving
// process and the CPU of the database's backends, each read from /proc around the requests.
// Before each round, one row of the facility is touched in SQL, so every page of the round is a
// first read after a write; a round asks every page of three sorts once, and searches.
import pg from 'pg';
import { median } from './bench-fixture.ts';
import { processCpuMs as cpuMs } from './server-process.ts';

/** The CPU of every backend of the database so far, by backend. */
async function backendsCpu(client: pg.Client): Promise<Map<number, number>> {
  const { rows } = await client.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
  );
  return new Map(rows.map((r) => [r.pid, cpuMs(r.pid)]));
}

export interface Cost {
  requests: number;
  /** Node CPU per request, µs. */
  nodeUs: number;
  /** PostgreSQL backends' CPU per request, µs. */
  pgUs: number;
}

/** Runs `send` for every URL in turn (4 at a time), measuring the CPU it cost. */
async function costOf(
  client: pg.Client,
  pid: number,
  urls: string[],
  headers: Record<string, string>,
): Promise<Cost> {
  const node = cpuMs(pid);
  const before = await backendsCpu(client);
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++]!;
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  const after = await backendsCpu(client);
  let pgMs = 0;
  for (const [backend, ms] of after) pgMs += ms - (before.get(backend) ?? 0);
  return {
    requests: urls.length,
    nodeUs: ((cpuMs(pid) - node) * 1000) / urls.length,
    pgUs: (pgMs * 1000) / urls.length,
  };
}

/** Every page of each sort, and searches, of a list of `rows` rows: none of them seen before. */
export function uncachedPages(listUrl: string, rows: number, round: number): string[] {
  const urls: string[] = [];
  const pages = Math.ceil(rows / 10);
  for (const sort of ['', '&sortBy=name&sortOrder=desc', '&sortBy=createdAt&sortOrder=asc'])
    for (let page = 1; page <= pages; page += 1)
      urls.push(`${listUrl}?pageLimit=10&pageNumber=${page}${sort}`);
  // Searches by a part of a name, each term once a round; then more of them, up to 400
  // requests a round, for a CPU figure of clock ticks (10 ms) that a small list can give.
  const searches = Math.max(pages, 400 - urls.length);
  for (let i = 0; i < searches; i += 1)
    urls.push(`${listUrl}?pageLimit=10&search=${encodeURIComponent(`${(i * 7 + round) % 1000}`)}`);
  return urls;
}

/**
 * ROUNDS of the anchor's requests then the app's uncached pages, each round after a write to
 * the facility; the medians of Node CPU and PostgreSQL CPU per request and of their ratios.
 */
export async function compareListCost(options: {
  databaseUrl: string;
  rounds: number;
  app: {
    pid: number;
    headers: Record<string, string>;
    touch: string;
    urls: (round: number) => string[];
  };
  anchor: { pid: number; url: string };
}): Promise<{ app: Cost; anchor: Cost; nodeRatio: number; pgRatio: number }> {
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    const apps: Cost[] = [];
    const anchors: Cost[] = [];
    for (let round = 0; round <= options.rounds; round += 1) {
      const urls = options.app.urls(round);
      await client.query(options.app.touch);
      const app = await costOf(client, options.app.pid, urls, options.app.headers);
      const anchor = await costOf(
        client,
        options.anchor.pid,
        urls.map(() => options.anchor.url),
        {},
      );
      // The first round warms both up.
      if (round === 0) continue;
      apps.push(app);
      anchors.push(anchor);
    }
    const of = (all: Cost[]): Cost => ({
      requests: all[0]!.requests,
      nodeUs: median(all.map((c) => c.nodeUs)),
      pgUs: median(all.map((c) => c.pgUs)),
    });
    return {
      app: of(apps),
      anchor: of(anchors),
      nodeRatio: median(apps.map((c, i) => c.nodeUs / anchors[i]!.nodeUs)),
      pgRatio: median(apps.map((c, i) => c.pgUs / Math.max(anchors[i]!.pgUs, 1))),
    };
  } finally {
    await client.end();
  }
}
