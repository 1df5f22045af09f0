import { beforeAll, describe, expect, it } from 'vitest';
import { ZStatisticsResponse } from '#core/schemas/verification.schemas.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';
import { statisticsAnswer, writeStatisticsResponse } from './statistics-answer.ts';
import { STATISTICS_TABLES, statisticsBuilds } from './statistics-cache.ts';

/*
 * The statistics answer is kept per state of the facility's data (statistics-cache.ts): read
 * again unchanged, it is not computed again; after any write that moves it, through the app or
 * by SQL from outside it, the answer is the one computed afresh, never the kept one.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { newRun, row, results } = kit;
let f: RunFacility;
beforeAll(async () => {
  f = await kit.build();
});

const query = () => ({ groupBy: 'location' as const, key: String(f.ptfe) });
const path = () => `${t.F}/verification/statistics?groupBy=location&key=${f.ptfe}`;

/** The answer as served, checked against its schema. */
async function served(headers: Record<string, string> = {}): Promise<Body> {
  const res = await t.server.request<Body>('GET', path(), { token: t.token, headers });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(ZStatisticsResponse.safeParse(res.body).success).toBe(true);
  return res.body;
}

/** The answer computed now from the database, past any kept one. */
async function fresh(): Promise<Body> {
  return JSON.parse(
    writeStatisticsResponse(await statisticsAnswer(t.server.db, t.facilityId, query())),
  ) as Body;
}

/** After a change: the served answer is the fresh one, and differs from `before`. */
async function expectMoved(before: Body, change: string): Promise<Body> {
  const after = await served();
  expect(after, change).toEqual(await fresh());
  expect(after, change).not.toEqual(before);
  return after;
}

describe('verification statistics kept per state of the data', () => {
  it('give every table they read the trigger that moves the list version', async () => {
    const missing = await t.server.db.query<{ table_name: string }>(
      `select t as table_name from unnest($1::text[]) t
        where not exists (select 1 from pg_trigger g where g.tgrelid = t::regclass
                            and g.tgname = t || '_list_version')`,
      [[...STATISTICS_TABLES]],
    );
    expect(missing).toEqual([]);
  });

  it('are computed once while nothing changes, and again after each change that moves them', async () => {
    const run = await newRun(await kit.study());
    const entered = await results(run, [row(run, f.ptfe, 0.1), row(run, f.ptfe, 0.4)]);
    expect(entered.status, JSON.stringify(entered.body)).toBe(200);
    let before = await served();
    expect(before).toEqual(await fresh());
    expect(before.statistics.count).toBe(2);

    // Unchanged: the kept bytes, gzipped or not, and no new computation.
    const builds = statisticsBuilds();
    expect(await served()).toEqual(before);
    expect(await served({ 'accept-encoding': 'identity' })).toEqual(before);
    expect(statisticsBuilds()).toBe(builds);

    // Results entered in another run.
    const later = await newRun(await kit.study());
    expect((await results(later, [row(later, f.ptfe, 0.2)])).status).toBe(200);
    before = await expectMoved(before, 'results entered');
    expect(before.statistics.count).toBe(3);

    // A reswab replaces the 40 % result: it no longer counts.
    const high = (entered.body.run.results as Body[])[1]!;
    const reswab = await results(run, [
      row(run, f.ptfe, 0.3, { repeats: { resultId: high.id, kind: 'reswab', reason: 'New swab' } }),
    ]);
    expect(reswab.status, JSON.stringify(reswab.body)).toBe(200);
    before = await expectMoved(before, 'a reswab');

    // The facility's verification settings judge the points.
    const set = await t.call('POST', `${t.F}/verification/settings`, {
      ppuTarget: 0.4,
      alertPercent: 15,
      actionPercent: 80,
      ewmaLambda: 0.3,
      reason: 'Tighter',
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    before = await expectMoved(before, 'the settings');
    expect(before.statistics.ppuTarget).toBe(0.4);

    // Writes from outside the app, each undone again: a result's value, a run's verdict, the
    // study that names the points, the location's name.
    const [stored] = await t.server.db.query<{ study_id: number; verdict: string }>(
      'select study_id, verdict from study_runs where id = $1',
      [later.id],
    );
    const writes: [string, string, string][] = [
      [
        'a result',
        `update sample_results set percent_of_limit = percent_of_limit + 1 where run_id = ${later.id}`,
        `update sample_results set percent_of_limit = percent_of_limit - 1 where run_id = ${later.id}`,
      ],
      [
        'a run',
        `update study_runs set verdict = 'Invalidated' where id = ${later.id}`,
        `update study_runs set verdict = '${stored!.verdict}' where id = ${later.id}`,
      ],
      [
        'a study',
        `update studies set seq = seq + 1000 where id = ${stored!.study_id}`,
        `update studies set seq = seq - 1000 where id = ${stored!.study_id}`,
      ],
      [
        'a location',
        `update sampling_locations set name = name || ' (renamed)' where id = ${f.ptfe}`,
        `update sampling_locations set name = left(name, -10) where id = ${f.ptfe}`,
      ],
    ];
    for (const [what, change, undo] of writes) {
      await t.server.db.query(change);
      const changed = await expectMoved(before, what);
      await t.server.db.query(undo);
      expect(await expectMoved(changed, `${what} undone`), `${what} undone`).toEqual(before);
    }
  });
});
