// What the verification benches share (issue 12): a small facility with a limits snapshot in
// force, 20 swab locations on one item of its first train, an approved protocol over them and a
// study; then runs with 20 results each entered over HTTP (POST {F}/runs/{id}/results).
import { admin, facilityWorkbook, type BenchBody } from './bench-fixture.ts';

type Call = (method: string, path: string, body?: unknown) => Promise<BenchBody>;
export const LOCATIONS = 20;

export const smallWorkbook = () =>
  facilityWorkbook({ actives: 10, products: 10, equipment: 20, productions: 2, seed: 7 });

/** Signs a controlled record until it is Approved (the policy lets the submitter approve). */
export async function putInForce(call: Call, documentType: string, documentId: number) {
  const policy = await call('GET', `/approval_policies?documentType=${documentType}`);
  await call('POST', '/approval_policies', {
    documentType,
    steps: [{ order: 1, signerRole: 'Approver', roleIds: [], minSignatures: 1 }],
    allowSelfApproval: true,
    reason: 'Benchmark',
    version: policy.approvalPolicy.version,
  });
  const sign = (action: string) =>
    call('POST', '/signatures', {
      documentType,
      documentId,
      action,
      password: admin.ADMIN_PASSWORD,
    });
  let answer = await sign('Submit');
  for (let step = 0; answer.document.status !== 'Approved' && step < 5; step++)
    answer = await sign(answer.document.status === 'BeingReviewed' ? 'Review' : 'Approve');
  return answer;
}

/** The study the runs go under, with its plan's locations. */
export async function verificationStudy(call: Call): Promise<{ studyId: number; method: number }> {
  const chemical = await call('GET', '/cleaning_limit_policies/Chemical');
  const saved = await call('POST', '/cleaning_limit_policies', {
    residueType: 'Chemical',
    useARL: !(chemical.policy ?? chemical).useARL,
    reason: 'Benchmark',
    version: chemical.version ?? chemical.policy.version,
  });
  const approved = await putInForce(
    call,
    'CleaningLimitPolicy',
    (saved.id ?? saved.policy.id) as number,
  );
  const snapshotId = approved.signature.limitsSnapshotId as number;
  const line = (await call('GET', '/productions?pageLimit=1')).data[0] as BenchBody;
  const equipmentId = line.equipmentIds[0] as number;
  const types = (await call('GET', '/sampling-types')).data as BenchBody[];
  const swab = types.find((x) => x.name === 'Swab')!.id;
  const locations = await call('POST', `/equipments/${equipmentId}/sampling-locations`, {
    equipmentId,
    data: Array.from({ length: LOCATIONS }, (_, i) => ({
      name: `Spot ${i}`,
      sampleType: 'swab',
      samplingTypeId: swab,
      material: 'PTFE',
    })),
  });
  const method = (await call('POST', '/analytical-method', { name: 'HPLC', testType: 'TOC' }))
    .result.id as number;
  const protocol = await call('POST', '/protocols', {
    protocolNumber: 'PR-BENCH',
    name: 'Bench protocol',
    productionId: line.id,
    equipmentIds: [equipmentId],
    productIds: (line.productIds as number[]).slice(0, 2),
    samplingPlan: (locations.result as BenchBody[]).map((l) => ({
      samplingLocationId: l.id,
      sampleType: 'swab',
      analyticalMethodId: method,
    })),
    limitsSnapshotId: snapshotId,
  });
  await putInForce(call, 'Protocol', protocol.result.id as number);
  const study = await call('POST', '/studies', {
    title: 'Bench study',
    studyType: 'Verification',
    protocolId: protocol.result.id,
  });
  return { studyId: study.id as number, method };
}

let batch = 0;
/** One run's 20 results, each a seeded share (5–60 %) of its location's limit. */
export function runResults(run: BenchBody, method: number, next: () => number) {
  return (run.plan as BenchBody[]).map((p) => {
    batch += 1;
    return {
      key: `k${batch}`,
      samplingLocationId: p.samplingLocationId,
      sampleType: 'swab',
      analyticalMethodId: method,
      batchNumber: `B-${batch}`,
      censoring: next() < 0.1 ? '< LOQ' : '=',
      rawValue: (p.limit as number) * (0.05 + next() * 0.55),
      unit: p.limitUnit,
    };
  });
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
