// GET {F}/dashboard for the 1,000-product facility (issue 13; target under 300 ms): the facility
// imported from its workbook, a study per production line (100, each over its line's equipment),
// 50 open change assessments and an analytical method with an LOQ; then the dashboard read 50
// times, the toxicity score 50 times and the MAC limit tracker (which computes the limits in
// force) 5 times. Prints p50/p99. Runs on PGlite, then on the PostgreSQL server at 127.0.0.1:5432.
//   npm run bench:dashboard
import {
  admin,
  facilityCaller,
  facilityWorkbook,
  onEachDatabase,
  signIn,
  THOUSAND_PRODUCTS,
  uploadWorkbook,
  type BenchBody,
} from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';
import { percentile, putInForce } from './verification-fixture.ts';

const READS = Number(process.env.READS ?? 50);
const TRACKER_READS = Number(process.env.TRACKER_READS ?? 5);
const STUDIES = Number(process.env.STUDIES ?? 100);

async function timed(times: number, read: () => Promise<BenchBody>) {
  const ms: number[] = [];
  let last: BenchBody = {};
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    last = await read();
    ms.push(performance.now() - t);
  }
  const sorted = ms.sort((a, b) => a - b);
  return {
    last,
    text: `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`,
  };
}

async function run(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env });
  try {
    const { token, facility } = await signIn(server.url);
    const F = facility(1);
    await uploadWorkbook(F, token, workbook);
    const call = facilityCaller(F, token);
    const lines = (await call('GET', `/productions?pageLimit=${STUDIES}`)).data as BenchBody[];
    for (const [i, line] of lines.entries()) {
      const protocol = await call('POST', '/protocols', {
        protocolNumber: `PR-DASH-${i}`,
        name: `Cleaning of ${String(line.name)}`,
        productionId: line.id,
        equipmentIds: line.equipmentIds,
        productIds: (line.productIds as number[]).slice(0, 2),
      });
      const id = protocol.result.id as number;
      // The first sets the protocol's approval policy (self-approval); the rest sign under it.
      if (i === 0) await putInForce(call, 'Protocol', id);
      else
        for (const action of ['Submit', 'Approve'])
          await call('POST', '/signatures', {
            documentType: 'Protocol',
            documentId: id,
            action,
            password: admin.ADMIN_PASSWORD,
          });
      await call('POST', '/studies', {
        title: `Validation of ${String(line.name)}`,
        studyType: 'Validation',
        protocolId: protocol.result.id,
      });
    }
    for (let i = 0; i < 50; i++)
      await call('POST', '/change-assessments', {
        title: `Change ${i}`,
        changeType: 'New equipment',
      });
    await call('POST', '/analytical-method', {
      name: 'TOC bench',
      testType: 'TOC',
      loq: { value: 0.5, unit: 'ppm' },
    });

    const home = await timed(READS, () => call('GET', '/dashboard'));
    const status = home.last.dashboard.equipmentStatus;
    console.log(
      `${label}: GET dashboard (${status.equipmentCount} equipment, ${home.last.dashboard.openChangeAssessments.open} open change assessments), ${READS} reads: ${home.text}`,
    );
    const toxicity = await timed(READS, () => call('GET', '/dashboard/toxicity-score'));
    console.log(
      `${label}: GET dashboard/toxicity-score (${toxicity.last.toxicityScore.total} actives), ${READS} reads: ${toxicity.text}`,
    );
    const tracker = await timed(TRACKER_READS, () => call('GET', '/dashboard/mac_limit_tracker'));
    console.log(
      `${label}: GET dashboard/mac_limit_tracker (${tracker.last.macLimitTracker.nearLoq.count} pairs near the LOQ), ${TRACKER_READS} reads: ${tracker.text}`,
    );
  } finally {
    await server.stop();
  }
}

const workbook = await facilityWorkbook(THOUSAND_PRODUCTS);
await onEachDatabase(run);
