import type { DeclaredRecord } from '../entities/defs/index.ts';
import { DECLARED_RECORDS } from '../entities/defs/index.ts';
import {
  ADMIN_RESOURCES,
  PERMISSION_RESOURCE_NAMES,
  type GuardResource,
} from '../permissions/permission-map.ts';
import { SIGN_ACTIONS } from '../schemas/signatures.schemas.ts';

/*
 * The catalogue of audit events (issue 28): every domain an audit row may name, its actions, and
 * for each whether it records a change of GMP data and what its values hold. The server's audit
 * writers take only what is in here, so an event nobody catalogued does not compile; what the
 * audit trail may contain is then a list an inspector can read (21 CFR 11.10(e), EU GMP Annex 11
 * §9: the trail records who did what, and the record of what it records is kept with the code).
 */

/** The old or new values of a row, as far as nothing more is fixed. */
export type AuditValues = Record<string, unknown>;

/** One action of a domain. `V` is what `newValues` holds, `O` what `oldValues` holds. */
export interface AuditActionDecl<V extends object = AuditValues, O extends object = AuditValues> {
  /**
   * Whether a row of it records a change of GMP data. Reads (an export, a download), refusals,
   * sign-ins and seals of the chain record none: a cache of computed limits stays current over
   * them (server/modules/limits/mac-matrix-cache.ts).
   */
  readonly changesData: boolean;
  /** Types only: never set. */
  readonly values?: { readonly new: V; readonly old: O };
}

const changes = <V extends object = AuditValues, O extends object = AuditValues>() =>
  ({ changesData: true }) as AuditActionDecl<V, O>;
const recordsOnly = <V extends object = AuditValues>() =>
  ({ changesData: false }) as AuditActionDecl<V, never>;

/** What a refused attempt records: what was attempted, and why or where. */
export interface RefusalValues {
  attempted: string;
  route?: string;
  facility?: number;
  why?: string;
  missing?: string[];
}

/** What a service account's call records: the token, the call and its answer. */
export interface ApiCallValues {
  tokenId: number;
  method: string;
  route: string;
  status: number;
  /** Why a known token was refused: 'revoked', 'expired', 'account archived or blocked'… */
  refused?: string;
}

/** What a refused signature records: the record it was for, and why it was refused. */
export interface SignatureRefusalValues extends RefusalValues {
  documentType: string;
  documentId: number;
  refusal: string;
}

/**
 * What a restore from a backup records (server/db/backup): the backup, when it was taken, each
 * chain's seq in it, and the database ids before and after (a restored copy takes its own).
 */
export interface RestoreValues {
  backup: string;
  backupTakenAt: string;
  chains: Record<string, number>;
  databaseId: string;
  previousDatabaseId: string;
}

/** Every declared record (core/entities/defs) takes these; they are declared once, here. */
const RECORD_ACTIONS = {
  Create: changes(),
  Update: changes(),
  Archive: changes(),
  Unarchive: changes(),
};

/** Records that take a document (`document` in their declaration) also record its file. */
const DOCUMENT_ACTIONS = {
  AttachDocument: changes(),
  ReplaceDocument: changes(),
};

/** A guard's refusal is recorded under the resource it guards (Annex 11 §12). */
const REFUSAL = { AccessRefused: recordsOnly<RefusalValues>() };

/** A copy of data leaving the system: recorded, but it changes nothing. */
const EXPORT = { Export: recordsOnly() };

/** Parts of a record kept under their own domain and written as an update of it. */
const SETTINGS_PART = { Update: changes() };

/** A facility's rule document, under the rule's own domain: made at its first edit. */
const FACILITY_RULE = { Create: changes(), Update: changes() };

const signActions = Object.fromEntries(SIGN_ACTIONS.map((action) => [action, changes()])) as {
  [A in (typeof SIGN_ACTIONS)[number]]: AuditActionDecl;
};

/**
 * Events whose domain is not a declared record, and the actions of declared records beyond the
 * common ones (a run's Submit, a change assessment's Stage). Kept in alphabetical order.
 */
const OWN_EVENTS = {
  // Plan settings (plan-record.ts), each part under its own domain.
  ActiveDirectorySettings: SETTINGS_PART,
  AllowedDomains: SETTINGS_PART,
  PasswordPolicy: SETTINGS_PART,
  SsoSettings: SETTINGS_PART,
  // Facility rules (facility-rules), each rule under its own domain: made at its first edit.
  ApprovalPolicy: FACILITY_RULE,
  CleaningInspectionSettings: FACILITY_RULE,
  MicrobialCleaningLimitPolicy: FACILITY_RULE,
  RiskGoal: FACILITY_RULE,
  VerificationSettings: FACILITY_RULE,
  DateTimeSettings: SETTINGS_PART,

  AdditionalProperty: RECORD_ACTIONS,
  AuditLog: { ...EXPORT, Anchor: recordsOnly() },
  Authentication: {
    Login: recordsOnly(),
    LoginFailed: recordsOnly(),
    LoginRefused: recordsOnly(),
    Lock: changes(),
    Logout: recordsOnly(),
    PasswordChangeRequired: recordsOnly(),
    Registered: changes(),
    ResetLinkSent: recordsOnly(),
    SecretKeyVerified: changes(),
    SignatureFailed: recordsOnly(),
    SsoLogin: recordsOnly(),
    SsoLoginFailed: recordsOnly(),
    SsoReauthenticated: recordsOnly(),
  },
  // Issue 32: an active linked to, or unlinked from, an HBEL library entry, or its PDE
  // overridden at the site (with the justification in the row).
  API: { HbelLink: changes(), HbelUnlink: changes(), HbelOverride: changes() },
  // Issue 32: what an analytical method measures (the active, total organic carbon, conductivity).
  AnalyticalMethod: { ResidueMeasure: changes() },
  ChangeAssessment: {
    ...EXPORT,
    Apply: changes(),
    Cancel: changes(),
    Decide: changes(),
    Evaluate: changes(),
    Generate: changes(),
    Stage: changes(),
    StageEdit: changes(),
    Unstage: changes(),
  },
  CleaningAssessment: { Complete: changes(), Failed: changes(), Generate: changes() },
  CustomReport: EXPORT,
  Deviation: { Close: changes(), ProposeClosure: changes(), Reopen: changes() },
  ElectronicSignature: {
    ...signActions,
    ...EXPORT,
    ApprovedByRecord: changes(),
    Bind: recordsOnly(),
    SignatureRefused: recordsOnly<SignatureRefusalValues>(),
  },
  Equipment: EXPORT,
  EquipmentImage: { Create: changes(), Delete: changes() },
  // The cleaning and use log (issue 31): each entry is audited under its event.
  EquipmentLogbook: {
    UseStarted: changes(),
    UseEnded: changes(),
    CleaningStarted: changes(),
    CleaningEnded: changes(),
    Released: changes(),
    Blocked: changes(),
    Unblocked: changes(),
    Correction: changes(),
    // A use refused by the production hold, or a release refused (signer, run, hold).
    Refused: recordsOnly<RefusalValues>(),
  },
  Facility: { LicenseChange: changes() },
  Feedback: { Create: recordsOnly() },
  Investigation: { Conclude: changes(), Invalidate: changes() },
  MailOutbox: { Read: recordsOnly() },
  QualificationTask: { Accept: changes(), Dismiss: changes() },
  MicrobialResult: { Invalidate: changes() },
  // A changeover's sampling sheet (issue 31), exported for the production it is on.
  Production: EXPORT,
  // Issue 33: a laboratory file of results entered in one transaction (each result audited too).
  SampleResult: { Import: changes(), Invalidate: changes() },
  ReportDocument: { ...EXPORT, Complete: changes(), Generate: changes() },
  RiskCalculation: EXPORT,
  Run: { Edit: changes(), Submit: changes() },
  SamplingLocation: { Assess: changes() },
  Security: { PasswordSetWithSecretKey: recordsOnly() },
  // Service accounts and their API tokens (issue 33); a token is recorded by id, never by value.
  ServiceAccount: {
    Create: changes(),
    Update: changes(),
    Archive: changes(),
    TokenIssued: changes(),
    TokenRevoked: changes(),
    // Each call made with a token (server/http/service-account-calls.ts).
    Call: recordsOnly<ApiCallValues>(),
  },
  Study: { Close: changes() },
  // A webhook delivery given up, sent again by an administrator (issue 33).
  Webhook: { Redeliver: recordsOnly() },
  // Issue 32: another product named as the worst case of a train or an item, signed with its
  // justification (Override, also when it replaces one), or withdrawn with a reason. A train's
  // are TrainWorstProductOverride (entity the train); WorstProductOverride's entity is the
  // production, from before overrides followed trains (core signatures.schemas.ts).
  WorstProductOverride: { Override: changes(), Withdraw: changes() },
  TrainWorstProductOverride: { Override: changes(), Withdraw: changes() },
  EquipmentWiseWorstProduct: { Override: changes(), Withdraw: changes() },
  System: { Seed: changes(), Restore: changes<RestoreValues>() },
  User: {
    ...RECORD_ACTIONS,
    Block: changes(),
    Enable: changes(),
    InvitationSent: changes(),
    Lock: changes(),
    PasswordChange: changes(),
    PasswordReset: changes(),
    PasswordSetWithSecretKey: changes(),
    SecretKeyCancelled: changes(),
    SecretKeyIssued: changes(),
    SessionsEnded: changes(),
    SsoIdentityLinked: changes(),
    Unblock: changes(),
    Unlock: changes(),
  },
} satisfies Record<string, Record<string, AuditActionDecl<object, object>>>;

type RecordEvents<R> = typeof RECORD_ACTIONS &
  (R extends { document: object } ? typeof DOCUMENT_ACTIONS : unknown);
type RecordCatalogue = { [R in DeclaredRecord as R['domain']]: RecordEvents<R> };
type RefusalCatalogue = { [D in RefusalDomain]: typeof REFUSAL };
type Own = typeof OWN_EVENTS;
type Part<T, K extends PropertyKey> = K extends keyof T ? T[K] : unknown;
type Merged<A, B, C> = {
  [K in keyof A | keyof B | keyof C]: Part<A, K> & Part<B, K> & Part<C, K>;
};

/** The catalogue: each domain's actions. */
export type AuditCatalogue = Merged<RecordCatalogue, Own, RefusalCatalogue>;
export type AuditDomain = keyof AuditCatalogue & string;
export type AuditAction<D extends AuditDomain> = keyof AuditCatalogue[D] & string;
/** The domain of a declared record (core/entities/defs). */
export type RecordDomain = DeclaredRecord['domain'];
/** The domain of a declared record that takes a document. */
export type DocumentDomain = Extract<DeclaredRecord, { document: object }>['domain'];

/** Domains that take every one of the actions `A`. */
export type DomainWith<A extends string> = {
  [D in AuditDomain]: [A] extends [AuditAction<D>] ? D : never;
}[AuditDomain];
/** Domains that take Update (a rule or settings part written as an update of its record). */
export type UpdatedDomain = DomainWith<'Update'>;

/** A catalogued domain and one of its actions, as a pair (an edit's named action). */
export type AuditEvent<D extends AuditDomain = AuditDomain> = {
  [K in D]: { [A in AuditAction<K>]: { domain: K; action: A } }[AuditAction<K>];
}[D];

/** An event whose rows carry a record's fields before and after (an edit's named action). */
export type FieldsEvent<D extends AuditDomain = AuditDomain> = {
  [K in D]: {
    [A in AuditAction<K>]: AuditValues extends AuditNewValues<K, A> & AuditOldValues<K, A>
      ? { domain: K; action: A }
      : never;
  }[AuditAction<K>];
}[D];

/**
 * A domain a guard's refusal is recorded under: the resource it guards, a resource of the
 * permission map or one of the system administrator's (guards and declarations are typed so).
 */
export type RefusalDomain = GuardResource;

type DeclOf<D extends AuditDomain, A extends AuditAction<D>> =
  AuditCatalogue[D][A] extends AuditActionDecl<infer V, infer O>
    ? { new: V; old: O }
    : { new: AuditValues; old: AuditValues };
export type AuditNewValues<D extends AuditDomain, A extends AuditAction<D>> = DeclOf<D, A>['new'];
export type AuditOldValues<D extends AuditDomain, A extends AuditAction<D>> = DeclOf<D, A>['old'];

function merge(into: Record<string, Record<string, AuditActionDecl>>, domain: string, add: object) {
  into[domain] = { ...into[domain], ...(add as Record<string, AuditActionDecl>) };
}

function buildCatalogue(): AuditCatalogue {
  const all: Record<string, Record<string, AuditActionDecl>> = {};
  for (const record of DECLARED_RECORDS) {
    merge(all, record.domain, RECORD_ACTIONS);
    if ('document' in record && record.document) merge(all, record.domain, DOCUMENT_ACTIONS);
  }
  for (const [domain, actions] of Object.entries(OWN_EVENTS)) merge(all, domain, actions);
  for (const domain of [...PERMISSION_RESOURCE_NAMES, ...ADMIN_RESOURCES])
    merge(all, domain, REFUSAL);
  return all as unknown as AuditCatalogue;
}

export const AUDIT_EVENTS: Readonly<AuditCatalogue> = buildCatalogue();

const catalogued = AUDIT_EVENTS as unknown as Readonly<
  Record<string, Readonly<Record<string, AuditActionDecl>>>
>;

/** Whether a domain and action (as read back from a row) are in the catalogue. */
export function isCatalogued(domain: string, action: string): boolean {
  return Object.hasOwn(catalogued, domain) && Object.hasOwn(catalogued[domain]!, action);
}

/** Actions that never record a change of GMP data under any domain they are catalogued in. */
export function actionsThatChangeNothing(): string[] {
  const changing = new Set<string>();
  const quiet = new Set<string>();
  for (const actions of Object.values(catalogued))
    for (const [action, decl] of Object.entries(actions))
      (decl.changesData ? changing : quiet).add(action);
  return [...quiet].filter((action) => !changing.has(action)).sort();
}

/** Every catalogued domain and action, sorted (for filters and for tests). */
export function auditEventList(): { domain: string; action: string; changesData: boolean }[] {
  return Object.entries(catalogued)
    .flatMap(([domain, actions]) =>
      Object.entries(actions).map(([action, decl]) => ({
        domain,
        action,
        changesData: decl.changesData,
      })),
    )
    .sort((a, b) => a.domain.localeCompare(b.domain) || a.action.localeCompare(b.action));
}
