import { DECLARED_RECORDS, ENTITY_DEFS, MODULE_RECORD_DEFS } from '../entities/defs/index.ts';
import { auditEventList } from '../audit/audit-events.ts';
import * as enumLabels from './enum-labels.ts';
import * as statusLabels from '../records/status-labels.ts';
import * as activeDirectory from '../schemas/active-directory.schemas.ts';
import * as additionalProperties from '../schemas/additional-properties.schemas.ts';
import * as analyticalMethods from '../schemas/analytical-methods.schemas.ts';
import * as annualSummary from '../schemas/annual-summary.schemas.ts';
import * as attachments from '../schemas/attachments.schemas.ts';
import * as audit from '../schemas/audit.schemas.ts';
import * as auth from '../schemas/auth.schemas.ts';
import * as changeAssessments from '../schemas/change-assessments.schemas.ts';
import * as cleaningAssessments from '../schemas/cleaning-assessments.schemas.ts';
import * as common from '../schemas/common.schemas.ts';
import * as customReports from '../schemas/custom-reports.schemas.ts';
import * as dashboard from '../schemas/dashboard.schemas.ts';
import * as departments from '../schemas/departments.schemas.ts';
import * as documents from '../schemas/documents.schemas.ts';
import * as equipmentExtras from '../schemas/equipment-extras.schemas.ts';
import * as equipmentStatus from '../schemas/equipment-status.schemas.ts';
import * as facilities from '../schemas/facilities.schemas.ts';
import * as facilityRules from '../schemas/facility-rules.schemas.ts';
import * as investigation from '../schemas/investigation.schemas.ts';
import * as jobs from '../schemas/jobs.schemas.ts';
import * as limitReports from '../schemas/limit-reports.schemas.ts';
import * as macMatrix from '../schemas/mac-matrix.schemas.ts';
import * as operators from '../schemas/operators.schemas.ts';
import * as policy from '../schemas/policy.schemas.ts';
import * as productions from '../schemas/productions.schemas.ts';
import * as reportCompare from '../schemas/report-compare.schemas.ts';
import * as reports from '../schemas/reports.schemas.ts';
import * as roles from '../schemas/roles.schemas.ts';
import * as roomGrades from '../schemas/room-grades.schemas.ts';
import * as rpnFormula from '../schemas/rpn-formula.schemas.ts';
import * as runInspection from '../schemas/run-inspection.schemas.ts';
import * as samplingAttributes from '../schemas/sampling-attributes.schemas.ts';
import * as settings from '../schemas/settings.schemas.ts';
import * as signatures from '../schemas/signatures.schemas.ts';
import * as signer from '../schemas/signer.schemas.ts';
import * as users from '../schemas/users.schemas.ts';
import * as verification from '../schemas/verification.schemas.ts';
import * as versions from '../schemas/versions.schemas.ts';
import * as whereUsed from '../schemas/where-used.schemas.ts';

/*
 * What no screen, PDF or xlsx meant for people may show (issue 30; Part 11 §11.10(b) "human
 * readable form"): a code where a word belongs, a specification reference, a record's database
 * id, an ISO timestamp or raw JSON. The browser walk over every screen (e2e/) and the server's
 * report tests check their text with `findForbiddenText`, so both read one list.
 */

const SCHEMA_MODULES: readonly Record<string, unknown>[] = [
  activeDirectory,
  additionalProperties,
  analyticalMethods,
  annualSummary,
  attachments,
  audit,
  auth,
  changeAssessments,
  cleaningAssessments,
  common,
  customReports,
  dashboard,
  departments,
  documents,
  equipmentExtras,
  equipmentStatus,
  facilities,
  facilityRules,
  investigation,
  jobs,
  limitReports,
  macMatrix,
  operators,
  policy,
  productions,
  reportCompare,
  reports,
  roles,
  roomGrades,
  rpnFormula,
  runInspection,
  samplingAttributes,
  settings,
  signatures,
  signer,
  users,
  verification,
  versions,
  whereUsed,
  enumLabels,
  statusLabels,
];

/** A code in words: an inner lower-to-upper step ('BeingApproved', 'equipmentWise'). */
const COMPOUND = /^[A-Za-z]*[a-z][A-Z][a-z][A-Za-z]*$/;
/** A constant's code: 'CAN_BE_RELEASED'. */
const SHOUTED = /^[A-Z]+(_[A-Z]+)+$/;

function isCodeWord(value: string): boolean {
  return COMPOUND.test(value) || SHOUTED.test(value);
}

function stringsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  const options = (value as { options?: unknown } | null)?.options;
  if (typeof value === 'object' && value !== null && Array.isArray(options))
    return stringsOf(options);
  return [];
}

/**
 * Every code core declares that reads as one word of mixed case: the values of its enums (zod
 * enums and constant lists), the keys of its label maps (a map's keys are the codes it labels),
 * and the record types, audit domains and field names of the declared records.
 */
function collectCodeWords(): Set<string> {
  const words = new Set<string>();
  const add = (value: string) => {
    if (isCodeWord(value)) words.add(value);
  };
  for (const module of SCHEMA_MODULES) {
    for (const [name, value] of Object.entries(module)) {
      stringsOf(value).forEach(add);
      if (/LABELS$/.test(name) && typeof value === 'object' && value !== null)
        Object.keys(value).forEach(add);
    }
  }
  for (const def of [...ENTITY_DEFS, ...MODULE_RECORD_DEFS]) {
    add(def.key);
    add(def.domain);
    for (const field of def.fields) add(field.name);
    if (def.controlled) add(def.controlled.documentType);
  }
  for (const record of DECLARED_RECORDS) add(record.domain);
  // Audit domains and actions ('AnalyticalMethod', 'SignatureRefused') are shown by their labels.
  for (const event of auditEventList()) {
    add(event.domain);
    add(event.action);
  }
  return words;
}

export const CODE_WORDS: ReadonlySet<string> = collectCodeWords();

export interface ForbiddenRule {
  name: string;
  pattern: RegExp;
  /** A further test of what the pattern found, where a pattern alone cannot say it. */
  applies?: (found: string) => boolean;
}

/** Significant digits of a decimal as written: '0.0208333' has 6, '2005.99' has 6. */
const significantDigits = (decimal: string): number =>
  decimal.replace('.', '').replace(/^0+/, '').length;

/** Patterns that are never right in text for people, whatever the screen. */
export const FORBIDDEN_PATTERNS: readonly ForbiddenRule[] = [
  { name: 'specification reference', pattern: /\bspec(ification)? §/i },
  // A record named by its number: "Report document #6". Page numbers and batch codes have no '#'.
  { name: 'record id', pattern: /(^|[\s(])#\d+\b/ },
  { name: 'ISO timestamp', pattern: /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/ },
  { name: 'raw JSON', pattern: /[{[]\s*"[^"\n]+"\s*:/ },
  { name: 'source path', pattern: /\b[\w-]+\/[\w./-]*\.(ts|tsx|md|sql)\b/ },
  { name: 'number glued to a word', pattern: /\b\d+(records|items|rows|results)\b/ },
  // Numbers as people read them (issue 30's "6.114e-5 mg", "2005.9999999999998"): the shared
  // formatter never writes e-notation, and at most 15 significant digits (the audit trail's,
  // which shows every digit a value was entered with, 21 CFR 11.10(e)); 16 or more is a float
  // printed as JavaScript writes it. Not inside a hyphenated code: a job's UUID
  // ('deeff8dc-6e45-456f-…') has '6e45' in it.
  // Not a literal of a formula as its author wrote it ('0.00001*MBS_kg*1e6/max_dose'). The
  // exponent's sign is required because JavaScript always writes one ('6.114e-5', '1e+21'):
  // without it a hash's short form that happens to be digits around one 'e' ('Data
  // 591218e80644' in a PDF's footer) read as a number.
  { name: 'e-notation', pattern: /(?<![\w.*/^(-])\d+(?:\.\d+)?e[-+]\d+(?![\w.-])/ },
  {
    name: 'unrounded number',
    pattern: /(?<![\w.])(?=[\d.]{17,})\d+\.\d+(?![\w.])/,
    applies: (found) => significantDigits(found) >= 16,
  },
];

export interface ForbiddenFinding {
  rule: string;
  /** The offending text and a little around it, for the failure message. */
  excerpt: string;
}

function excerptAt(text: string, index: number, length: number): string {
  return text
    .slice(Math.max(0, index - 30), index + length + 30)
    .replace(/\s+/g, ' ')
    .trim();
}

/** What in `text` is a code, key, id, path or specification reference instead of words. */
export function findForbiddenText(text: string): ForbiddenFinding[] {
  const found: ForbiddenFinding[] = [];
  for (const rule of FORBIDDEN_PATTERNS) {
    const match = new RegExp(rule.pattern.source, `${rule.pattern.flags.replace('g', '')}g`);
    for (const hit of text.matchAll(match))
      if (!rule.applies || rule.applies(hit[0]))
        found.push({ rule: rule.name, excerpt: excerptAt(text, hit.index, hit[0].length) });
  }
  for (const hit of text.matchAll(/[A-Za-z_]+/g)) {
    if (CODE_WORDS.has(hit[0]))
      found.push({ rule: `code ${hit[0]}`, excerpt: excerptAt(text, hit.index, hit[0].length) });
  }
  return found;
}

/** The findings as one message per line, '' when there are none (for test failures). */
export function forbiddenTextReport(where: string, text: string): string {
  return findForbiddenText(text)
    .map((f) => `${where}: ${f.rule}: …${f.excerpt}…`)
    .join('\n');
}
