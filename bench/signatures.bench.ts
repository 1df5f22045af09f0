// Electronic signatures at scale, through the HTTP API of a production build: 1,000 SOPs each
// submitted and approved (2,000 calls of POST {F}/signatures, each re-checking the signer's
// password), printing the signature call's p50/p99, then My approvals and a signatures read.
// Binding and anchoring (issue 28): each signature's MAC and chain entry are part of the call;
// the chains are anchored every BENCH_ANCHOR_SECONDS (1, the worst case) while it signs, and
// the MAC alone, the anchor file, one anchor and verify over every signature are printed after.
// On the PostgreSQL database of DATABASE_URL when it is set, else on a fresh PGlite directory.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { signatureMac } from '#server/records/signature-binding.ts';
import { admin, anchorFigures, facilityCaller, signIn } from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1000);
const ANCHOR_SECONDS = process.env.BENCH_ANCHOR_SECONDS ?? '1';

/** The MAC of a signature alone, in process: what binding adds to a call besides its row. */
function macCost(): string {
  const key = randomBytes(32);
  const row = {
    id: 1,
    facility_id: 1,
    document_type: 'SOP',
    document_id: 1,
    version_number: 1,
    action: 'Approve',
    signer_role: 'Approver',
    meaning: 'Approved',
    printed_name: 'Bench Signer',
    user_id: 1,
    signed_at: new Date(),
    content_hash: 'a'.repeat(64),
    reason: null,
    limits_snapshot_id: null,
  };
  const t = performance.now();
  for (let i = 0; i < RECORDS; i += 1) signatureMac(key, { ...row, id: i });
  return `MAC of ${RECORDS} signatures in process: ${(performance.now() - t).toFixed(1)} ms`;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(label: string, ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  return `${label}: n=${ms.length} p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`;
}

async function run(label: string, env: Record<string, string>): Promise<void> {
  const anchors = mkdtempSync(join(tmpdir(), 'carryover-bench-anchors-'));
  const server = await startServerProcess({
    ...admin,
    SERVE_CLIENT: 'false',
    AUDIT_ANCHOR_DIR: anchors,
    AUDIT_ANCHOR_INTERVAL_SECONDS: ANCHOR_SECONDS,
    ...env,
  });
  try {
    const { token, facility } = await signIn(server.url);
    const F = facility(1);
    const call = facilityCaller(F, token);
    // One signer for the whole run: the policy lets the submitter approve (it is the call's
    // cost that is measured here; segregation of duties has its own tests).
    const policy = await call('GET', '/approval_policies?documentType=SOP');
    await call('POST', '/approval_policies', {
      documentType: 'SOP',
      steps: [{ order: 1, signerRole: 'Approver', roleIds: [], minSignatures: 1 }],
      allowSelfApproval: true,
      reason: 'Benchmark',
      version: policy.approvalPolicy.version,
    });
    const ids: number[] = [];
    for (let i = 0; i < RECORDS; i += 1) {
      const created = await call('POST', '/sop', {
        sopNumber: `BENCH-${i}`,
        name: `Bench SOP ${i}`,
      });
      ids.push(created.result.id);
    }
    const timings: Record<'Submit' | 'Approve', number[]> = { Submit: [], Approve: [] };
    const started = performance.now();
    for (const action of ['Submit', 'Approve'] as const) {
      if (action === 'Approve') {
        const t = performance.now();
        const pending = await call('GET', '/signatures/pending');
        console.log(
          `${label}: My approvals with ${pending.count} records waiting: ${(performance.now() - t).toFixed(0)} ms`,
        );
      }
      for (const id of ids) {
        const t = performance.now();
        await call('POST', '/signatures', {
          documentType: 'SOP',
          documentId: id,
          action,
          password: admin.ADMIN_PASSWORD,
        });
        timings[action].push(performance.now() - t);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`${label}: ${RECORDS} SOPs submitted and approved in ${seconds.toFixed(1)} s`);
    console.log(
      summary(`${label}: POST signatures (all)`, [...timings.Submit, ...timings.Approve]),
    );
    console.log(summary(`${label}: POST signatures (Submit)`, timings.Submit));
    console.log(summary(`${label}: POST signatures (Approve)`, timings.Approve));
    const t = performance.now();
    const read = await call('GET', `/signatures?documentType=SOP&documentId=${ids[0]}`);
    console.log(
      `${label}: GET signatures of one record (${read.signatures.length}, valid recomputed): ${(performance.now() - t).toFixed(1)} ms`,
    );
    console.log(`${label}: anchored every ${ANCHOR_SECONDS} s while signing`);
    await anchorFigures(label, server.url, token, anchors);
  } finally {
    await server.stop();
    rmSync(anchors, { recursive: true, force: true });
  }
}

console.log(macCost());
execFileSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' });
if (process.env.DATABASE_URL) {
  await run('PostgreSQL', { DATABASE_URL: process.env.DATABASE_URL });
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'carryover-bench-'));
  try {
    await run('PGlite', { DATA_DIR: dataDir });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
