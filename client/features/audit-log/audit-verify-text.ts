import type { AuditVerifyResult } from './audit-verify-api.ts';

type ChainCheck = AuditVerifyResult['chains'][number];

/** What each problem the server names means to a reader of the trail. */
const PROBLEMS: Record<string, string> = {
  gap: 'an entry is missing',
  prev_hash: 'an entry no longer links to the entry before it',
  hash: 'an entry was changed after it was written',
  head: 'the last entry differs from the recorded end of the trail',
  anchor: 'the trail differs from the signed copy of it kept outside the database',
  anchor_signature: 'a signed copy of the trail kept outside the database has a wrong signature',
};

/** Why a signature is not valid, to a reader of the trail. */
const SIGNATURE_PROBLEMS: Record<string, string> = {
  record_changed: 'the record changed after it was signed',
  no_chain_entry: 'it is not in the audit trail (written by other means than signing)',
  mac: 'it does not match its seal in the audit trail',
};

type SignatureCheck = AuditVerifyResult['signatures']['invalid'][number];

function signatureLine(s: SignatureCheck): string {
  const why = SIGNATURE_PROBLEMS[s.problem] ?? 'it does not verify';
  return `Signature ${s.id} of ${s.documentType} ${s.documentId}, version ${s.versionNumber}: not valid: ${why}.`;
}

type BrokenRecord = AuditVerifyResult['records']['broken'][number];

function recordLine(r: BrokenRecord): string {
  return `${r.documentType} ${r.documentId}, version ${r.versionNumber}: integrity broken: ${r.reason}. Do not rely on it until QA has investigated.`;
}

/** 'facility:3' → the facility's name; 'plan:1' → the entries that belong to no facility. */
export function chainName(chain: string, facilityNames: ReadonlyMap<number, string>): string {
  const [kind, id] = chain.split(':');
  if (kind === 'plan') return 'Plan-wide entries';
  const name = facilityNames.get(Number(id));
  return name ? `Entries of ${name}` : 'Entries of another facility';
}

export interface VerifyOutcome {
  intact: boolean;
  title: string;
  lines: string[];
}

function brokenLine(check: ChainCheck, facilityNames: ReadonlyMap<number, string>): string {
  const problem = PROBLEMS[check.problem ?? ''] ?? 'the entries do not match their hashes';
  const where = check.brokenSeq === null ? '' : ` at entry ${check.brokenSeq}`;
  return `${chainName(check.chain, facilityNames)}: broken${where}: ${problem}.`;
}

/** The verification's result in words: intact, or where each broken chain breaks and why. */
export function verifyOutcome(
  result: AuditVerifyResult,
  facilityNames: ReadonlyMap<number, string>,
): VerifyOutcome {
  const rows = result.chains.reduce((sum, check) => sum + check.rows, 0);
  const signed = result.signatures.checked;
  if (result.intact) {
    return {
      intact: true,
      title: 'The audit trail is intact',
      lines: [
        `${rows} ${rows === 1 ? 'entry' : 'entries'} checked; none was changed, removed or inserted.`,
        ...(signed > 0
          ? [
              `${signed} electronic ${signed === 1 ? 'signature' : 'signatures'} checked; all valid.`,
            ]
          : []),
      ],
    };
  }
  const chainsIntact = result.chains.every((check) => check.intact);
  const signaturesValid = result.signatures.invalid.length === 0;
  return {
    intact: false,
    title: !chainsIntact
      ? 'The audit trail is broken'
      : signaturesValid
        ? 'Approved records were changed outside the application'
        : 'Electronic signatures are not valid',
    lines: [
      ...result.chains
        .filter((check) => !check.intact)
        .map((check) => brokenLine(check, facilityNames)),
      ...result.signatures.invalid.map(signatureLine),
      ...result.records.broken.map(recordLine),
    ],
  };
}
