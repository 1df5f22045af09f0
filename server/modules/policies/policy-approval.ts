import { createHash } from 'node:crypto';
import { contractChunks } from '#core/limits/contract-output.ts';
import {
  RESIDUE_TYPES,
  defaultPolicy,
  type CleaningLimitPolicy,
  type ResidueType,
} from '#core/limits/policy.ts';
import type { Queryable } from '#server/db/db.ts';
import { emitRecordEvent } from '#server/records/record-events.ts';
import {
  canonicalJson,
  registerDocumentType,
  type ApprovedContext,
  type ControlledRef,
} from '#server/records/controlled.ts';
import { computable } from '../limits/computable-input.ts';
import { facilityLimitsInput } from '../limits/facility-limits-input.ts';
import { policyTitle } from './policy-documents.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The residue type a CleaningLimitPolicy version is for; null for the microbial policy. */
function residueTypeOf(content: Record<string, unknown>): ResidueType | null {
  const type = content.residueType as ResidueType | undefined;
  return type && RESIDUE_TYPES.includes(type) ? type : null;
}

/**
 * What an approval puts in force, kept for good: the limits engine's input for the facility as
 * facilityLimitsInput builds it with the newly approved policy or MAC formula (the Chemical one in force for
 * the microbial policy and the inspection settings, which the engine does not take), the
 * SHA-256 of its canonical JSON, and the SHA-256 of the engine's output (the MAC matrix
 * document, as GET mac-matrix streams it before its `uncomputable` list).
 */
export async function storeLimitsSnapshot(
  tx: Queryable,
  { ref, versionNumber, content }: Pick<ApprovedContext, 'ref' | 'versionNumber' | 'content'>,
): Promise<number> {
  const residueType = ref.documentType === 'CleaningLimitPolicy' ? residueTypeOf(content) : null;
  // A MAC formula's approval puts its version in force with the limits it moves.
  const approvedFormula =
    ref.documentType === 'MacFormula'
      ? { documentId: ref.documentId, versionNumber, content }
      : null;
  const raw = await facilityLimitsInput(
    tx,
    ref.facilityId,
    approvedFormula
      ? { approvedFormula }
      : residueType
        ? {
            residueType,
            policyContent: {
              ...defaultPolicy(residueType),
              ...content,
              residueType,
            } as CleaningLimitPolicy,
          }
        : {},
  );
  const { input } = computable(raw);
  const output = createHash('sha256');
  for (const chunk of contractChunks(input)) output.update(chunk);
  const outputHash = output.digest('hex');
  const [row] = await tx.query<{ id: number }>(
    `insert into limits_snapshots (facility_id, document_type, document_id, version_number,
       input, input_hash, output_hash)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [
      ref.facilityId,
      ref.documentType,
      ref.documentId,
      versionNumber,
      JSON.stringify(input),
      sha256(canonicalJson(input)),
      outputHash,
    ],
  );
  // Other systems learn of limits put in force with them (issue 33): the snapshot names them.
  await emitRecordEvent(tx, {
    facilityId: ref.facilityId,
    event: 'limits.changed',
    // One record per facility, so that its limit changes arrive in the order they were approved.
    record: { type: 'FacilityLimits', id: ref.facilityId },
    data: {
      limitsSnapshotId: row!.id,
      documentType: ref.documentType,
      documentId: ref.documentId,
      versionNumber,
      outputHash,
    },
  });
  return row!.id;
}

const recordVersion =
  (table: 'cleaning_limit_policies' | 'facility_rules') =>
  async (q: Queryable, ref: ControlledRef): Promise<number | null> => {
    const [row] = await q.query<{ version: number }>(
      `select version from ${table} where facility_id = $1 and id = $2`,
      [ref.facilityId, ref.documentId],
    );
    return row?.version ?? null;
  };

/** The working content a rule's row keeps, which equals the approved one when none is in progress. */
const liveContent =
  (table: string, column: string) =>
  async (q: Queryable, facilityId: number, ids: readonly number[]) => {
    const rows = await q.query<{ id: number; content: Record<string, unknown> }>(
      `select id, ${column} as content from ${table} where facility_id = $1 and id = any($2::int[])`,
      [facilityId, [...ids]],
    );
    return new Map(rows.map((r) => [r.id, r.content]));
  };

/** The limit policies and the inspection settings as controlled document types. */
export function registerPolicyDocumentTypes(): void {
  registerDocumentType('CleaningLimitPolicy', {
    resource: 'CleaningPolicy',
    action: 'Modify',
    title: (content) => policyTitle(residueTypeOf(content) ?? 'Microbial'),
    recordVersion: recordVersion('cleaning_limit_policies'),
    liveContent: liveContent('cleaning_limit_policies', 'policy'),
    onApproved: storeLimitsSnapshot,
  });
  registerDocumentType('CleaningInspectionSettings', {
    resource: 'CleaningPolicy',
    action: 'Modify',
    title: () => policyTitle('InspectionSettings'),
    recordVersion: recordVersion('facility_rules'),
    liveContent: liveContent('facility_rules', 'body'),
    onApproved: storeLimitsSnapshot,
  });
}
