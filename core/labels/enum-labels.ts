import type { TSignedDocumentType } from '../schemas/signatures.schemas.ts';
import type { FilterOperator } from '../schemas/custom-reports.schemas.ts';
import type { TSampleType } from '../schemas/verification.schemas.ts';
import type { CriterionKey } from '../limits/compile.ts';

/*
 * Words for codes that reach people (screens, PDFs, xlsx): one map per enum, read alike by the
 * client and the server's documents. Part 11 §11.10(b) asks for copies "in human readable
 * form"; a code such as `ChangeAssessment` is not.
 */

export const DOCUMENT_TYPE_LABELS: Record<TSignedDocumentType, string> = {
  CleaningLimitPolicy: 'Cleaning limit policy',
  CleaningInspectionSettings: 'Cleaning inspection settings',
  SOP: 'SOP',
  DocumentVersion: 'Document version',
  ChangeAssessment: 'Change assessment',
  CleaningAssessment: 'Cleaning assessment',
  Protocol: 'Protocol',
  Study: 'Study',
  Run: 'Run',
  ReportDocument: 'Report document',
  AnnualSummary: 'Annual summary',
  Investigation: 'Investigation',
  Deviation: 'Deviation',
  HbelMonograph: 'HBEL monograph',
  MacFormula: 'MAC formula',
  EquipmentTrain: 'Equipment train',
  EquipmentRelease: 'Equipment release',
  HbelOverride: 'Site PDE override',
  WorstProductOverride: 'Worst-case override of a production',
  TrainWorstProductOverride: 'Worst-case override of an equipment train',
  EquipmentWiseWorstProduct: 'Worst-case override of an item of equipment',
};

/** A document type in words; one the map does not know is shown as written. */
export function documentTypeLabel(type: string): string {
  return DOCUMENT_TYPE_LABELS[type as TSignedDocumentType] ?? type;
}

export const LIMIT_BASES = ['equipmentWise', 'productWise'] as const;
export type TLimitBasis = (typeof LIMIT_BASES)[number];

/** How a protocol's acceptance limits are derived: per item of equipment or per product. */
export const LIMIT_BASIS_LABELS: Record<TLimitBasis, string> = {
  equipmentWise: 'Equipment-wise',
  productWise: 'Product-wise',
};

export function limitBasisLabel(basis: string): string {
  return LIMIT_BASIS_LABELS[basis as TLimitBasis] ?? basis;
}

/** Rules of ongoing verification a result or the capability can break (statistics alerts). */
export const STATISTICS_ALERT_KINDS = [
  'aboveAlert',
  'aboveAction',
  'aboveUcl',
  'ewmaTrend',
  'censoredAboveLimit',
  'ppuBelowTarget',
] as const;
export type TStatisticsAlertKind = (typeof STATISTICS_ALERT_KINDS)[number];

export const STATISTICS_ALERT_LABELS: Record<TStatisticsAlertKind, string> = {
  aboveAlert: 'Above alert level',
  aboveAction: 'Above action level',
  aboveUcl: 'Above upper control limit',
  ewmaTrend: 'EWMA trend',
  censoredAboveLimit: 'Censored result above limit',
  ppuBelowTarget: 'Ppu below target',
};

export function statisticsAlertLabel(kind: string): string {
  return STATISTICS_ALERT_LABELS[kind as TStatisticsAlertKind] ?? kind;
}

/** Custom report filters as a sentence reads them: "Surface area greater than 1000". */
export const FILTER_OPERATOR_LABELS: Record<FilterOperator, string> = {
  EqualTo: 'equal to',
  LessThan: 'less than',
  LessThanEqualTo: 'less than or equal to',
  GreaterThan: 'greater than',
  GreaterThanEqualTo: 'greater than or equal to',
  Contains: 'contains',
};

export function filterOperatorLabel(operator: string): string {
  return FILTER_OPERATOR_LABELS[operator as FilterOperator] ?? operator;
}

/** Sample types as a heading or a cell shows them; a sentence may lower-case them. */
export const SAMPLE_TYPE_LABELS: Record<TSampleType, string> = {
  swab: 'Swab',
  rinse: 'Rinse',
};

export function sampleTypeLabel(type: string): string {
  return SAMPLE_TYPE_LABELS[type as TSampleType] ?? type;
}

/** A repeat of a result: the same sample analysed again, or a new sample taken. */
export const REPEAT_KIND_LABELS: Record<'retest' | 'reswab', string> = {
  retest: 'Retest',
  reswab: 'Re-swab',
};

/** What a worst-case ranking can be ordered by, as a sentence names it ("highest PDE"). */
export const RANKING_ATTRIBUTE_LABELS: Readonly<Record<string, string>> = {
  score: 'risk score',
  lowestMaco: 'MACO',
  pdeMg: 'PDE',
  solubility: 'solubility score',
  cleanability: 'cleanability score',
  therapeuticDoseMg: 'therapeutic dose',
  minBatchSize: 'minimum batch size',
  maxDailyDose: 'maximum daily dose',
};

export function rankingAttributeLabel(attribute: string): string {
  return RANKING_ATTRIBUTE_LABELS[attribute] ?? attribute;
}

/** A risk factor of the ranking as a column heading: 'solubility' → 'Solubility (points)'. */
export function rankingFactorHeading(factor: string): string {
  return `${factor.charAt(0).toUpperCase()}${factor.slice(1)} (points)`;
}

/** Each carryover criterion of the limits engine as a sentence names it ('dose-based still governs'). */
export const CRITERION_NAMES: Record<CriterionKey, string> = {
  health: 'health-based',
  dose: 'dose-based',
  ld50: 'LD50-based',
  arl: 'general limit',
  product: 'product limit',
  formula: 'MAC formula',
};

/** A criterion's key in words; one the map does not know is shown as written. */
export function criterionName(key: string): string {
  return CRITERION_NAMES[key as CriterionKey] ?? key;
}

/** A cleaning agent's governing criterion in words: its own ppm ceiling, or a product's criterion. */
export function agentCriterionLabel(key: string): string {
  return key === 'ceiling' ? 'Agent ppm ceiling' : criterionLabel(key);
}

/** A criterion's name as a cell or an option shows it on its own: 'Health-based'. */
export function criterionLabel(key: string): string {
  const name = criterionName(key);
  return name.charAt(0).toUpperCase() + name.slice(1);
}
