import { z } from 'zod';
import type { PropertyError } from '../errors/errors.ts';
import { equipmentDef } from '../entities/defs/equipment.def.ts';
import { productsDef } from '../entities/defs/products.def.ts';
import type { EntityDef } from '../entities/entity.ts';
import { CRITERION_KEYS } from '../limits/compile.ts';
import { SAMPLE_TYPE_LABELS, criterionLabel, filterOperatorLabel } from '../labels/enum-labels.ts';
import { isoDateProblem } from './documents.schemas.ts';
import type { GuardResource } from '../permissions/permission-map.ts';

/*
 * Custom reports (spec §3 "custom report", §7): a saved choice of a source, its columns and
 * filters. The sources and their columns are declared here once, so the form, the record's
 * validation (customReportProblems) and the server's queries agree on every name.
 */

export const CUSTOM_REPORT_SOURCES = [
  'pairs',
  'products',
  'equipment',
  'sampleResults',
  'auditEntries',
] as const;
export type CustomReportSource = (typeof CUSTOM_REPORT_SOURCES)[number];

export const COLUMN_TYPES = ['text', 'number', 'date', 'boolean', 'enum'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

/** Spec §3's comparison operators, and Contains for texts. */
export const FILTER_OPERATORS = [
  'EqualTo',
  'LessThan',
  'LessThanEqualTo',
  'GreaterThan',
  'GreaterThanEqualTo',
  'Contains',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

const COMPARISONS = [
  'EqualTo',
  'LessThan',
  'LessThanEqualTo',
  'GreaterThan',
  'GreaterThanEqualTo',
] as const;

export const OPERATORS_BY_TYPE: Record<ColumnType, readonly FilterOperator[]> = {
  text: ['EqualTo', 'Contains'],
  number: COMPARISONS,
  date: COMPARISONS,
  boolean: ['EqualTo'],
  enum: ['EqualTo'],
};

export interface SourceColumn {
  key: string;
  label: string;
  type: ColumnType;
  unit?: string;
  options?: readonly string[];
  /** Words for options that are codes ('swab' → 'Swab'); the value is what is sent and kept. */
  optionLabels?: Readonly<Record<string, string>>;
  /** A column worded after the query (an audit entry's record by name) cannot be filtered on. */
  filterable?: false;
}

/** The filter operators a column takes: none for a column worded after the query. */
export function columnOperators(column: SourceColumn): readonly FilterOperator[] {
  return column.filterable === false ? [] : OPERATORS_BY_TYPE[column.type];
}

export interface SourceDeclaration {
  key: CustomReportSource;
  label: string;
  description: string;
  /** The permission (spec §6) that guards the data itself, besides ReportDocument Get. */
  resource: GuardResource;
  action: string;
  columns: readonly SourceColumn[];
}

const text = (key: string, label: string): SourceColumn => ({ key, label, type: 'text' });
const num = (key: string, label: string, unit?: string): SourceColumn =>
  unit ? { key, label, type: 'number', unit } : { key, label, type: 'number' };
const date = (key: string, label: string): SourceColumn => ({ key, label, type: 'date' });
const bool = (key: string, label: string): SourceColumn => ({ key, label, type: 'boolean' });
const choice = (
  key: string,
  label: string,
  options: readonly string[],
  optionLabels?: Readonly<Record<string, string>>,
): SourceColumn => ({
  key,
  label,
  type: 'enum',
  options,
  ...(optionLabels ? { optionLabels } : {}),
});

/** 'health-based' → 'Health-based': a criterion's name as an option or a cell shows it. */
const GOVERNING_LABELS = Object.fromEntries(
  CRITERION_KEYS.map((key) => [key, criterionLabel(key)]),
);

/** The options of a declared enum field, so a report offers exactly what the record takes. */
function optionsOf(def: EntityDef, name: string): readonly string[] {
  const field = def.fields.find((f) => f.name === name);
  return field?.kind === 'enum' ? field.options : [];
}

export const SOURCE_DECLARATIONS: readonly SourceDeclaration[] = [
  {
    key: 'pairs',
    label: 'MAC matrix pairs',
    description:
      'Every previous → next pair of the MAC matrix as the approved Chemical policy computes it now.',
    resource: 'RiskCalculation',
    action: 'Get',
    columns: [
      text('previous', 'Previous product'),
      text('next', 'Next product'),
      text('sharedEquipment', 'Shared equipment'),
      num('area', 'Shared area', 'sqcm'),
      choice('governing', 'Governing criterion', CRITERION_KEYS, GOVERNING_LABELS),
      text('governingActive', 'Governing active'),
      num('maco', 'MACO', 'mg'),
      num('sal', 'Surface limit (SAL)', 'mg/sqcm'),
      bool('salCapped', 'SAL capped'),
      num('swabLimit', 'Swab limit', 'mg/swab'),
      num('rinseLimit', 'Rinse limit', 'mg/ml'),
      text('flags', 'Flags'),
    ],
  },
  {
    key: 'products',
    label: 'Products',
    description: 'The facility’s products that are not archived.',
    resource: 'Product',
    action: 'Get',
    columns: [
      text('name', 'Name'),
      text('externalId', 'External ID'),
      choice('dosageForm', 'Dosage form', optionsOf(productsDef, 'dosageForm')),
      text('maxDailyDose', 'Largest daily dose'),
      text('minBatchSize', 'Minimum batch size'),
      num('activeCount', 'Number of actives'),
      date('updatedAt', 'Last changed'),
    ],
  },
  {
    key: 'equipment',
    label: 'Equipment',
    description: 'The facility’s equipment that is not archived; surface areas in sqcm.',
    resource: 'Equipment',
    action: 'Get',
    columns: [
      text('name', 'Name'),
      text('externalId', 'External ID'),
      num('surfaceArea', 'Surface area', 'sqcm'),
      choice('material', 'Material of construction', optionsOf(equipmentDef, 'material')),
      choice('roomGrade', 'Room grade', optionsOf(equipmentDef, 'roomGrade')),
      date('updatedAt', 'Last changed'),
    ],
  },
  {
    key: 'sampleResults',
    label: 'Sample results',
    description:
      'Results of the samples of study runs, with the judgement the server made of each (percent of limit, passed).',
    resource: 'QualificationTask',
    action: 'Get',
    columns: [
      text('study', 'Study'),
      text('studyTitle', 'Study title'),
      num('run', 'Run'),
      text('productBatch', 'Product batch'),
      text('equipment', 'Equipment'),
      text('samplingLocation', 'Sampling location'),
      choice('sampleType', 'Sample type', ['swab', 'rinse'], SAMPLE_TYPE_LABELS),
      text('analyticalMethod', 'Analytical method'),
      text('batchNumber', 'Sample number'),
      choice('censoring', 'Censoring', ['=', '< LOD', '< LOQ', '> upper limit']),
      num('rawValue', 'Value'),
      text('unit', 'Unit'),
      num('percentOfLimit', 'Percent of limit', '%'),
      bool('passed', 'Passed'),
      bool('superseded', 'Superseded'),
      date('takenAt', 'Taken'),
    ],
  },
  {
    key: 'auditEntries',
    label: 'Audit entries',
    description: 'The facility’s audit trail; dates are UTC.',
    resource: 'AuditLog',
    action: 'Get',
    columns: [
      date('at', 'When'),
      text('userName', 'User'),
      text('domain', 'Domain'),
      text('action', 'Action'),
      // The record an entry is about in words ('Product ‘Aspirin’'), never its database id
      // (issue 30); the key stays what saved reports name.
      { key: 'entityId', label: 'Record', type: 'text', filterable: false },
      text('reason', 'Reason'),
    ],
  },
];

/** Each source in words: 'sampleResults' → 'Sample results'. */
export const SOURCE_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  SOURCE_DECLARATIONS.map((source) => [source.key, source.label]),
);

/** Every source's column keys in words ('maxDailyDose' → 'Largest daily dose'). */
export const COLUMN_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  SOURCE_DECLARATIONS.flatMap((source) => source.columns.map((c) => [c.key, c.label])),
);

export function sourceDeclaration(key: string): SourceDeclaration | undefined {
  return SOURCE_DECLARATIONS.find((s) => s.key === key);
}

export interface ReportFilter {
  column: string;
  operator: string;
  value: string;
}

/** A filter's value as its column compares it, or the problem with it. */
export function parseFilterValue(
  column: SourceColumn,
  value: string,
): { value: string | number | boolean } | { problem: string } {
  switch (column.type) {
    case 'number': {
      const n = Number(value.trim());
      return value.trim() !== '' && Number.isFinite(n)
        ? { value: n }
        : { problem: `must be a number for ${column.label}` };
    }
    case 'date': {
      const problem = isoDateProblem(value.trim());
      return problem ? { problem } : { value: value.trim() };
    }
    case 'boolean':
      return value === 'true' || value === 'false'
        ? { value: value === 'true' }
        : { problem: 'must be Yes or No' };
    case 'enum':
      return column.options?.includes(value)
        ? { value }
        : {
            problem: `must be one of ${(column.options ?? [])
              .map((o) => column.optionLabels?.[o] ?? o)
              .join(', ')}`,
          };
    case 'text':
      return { value };
  }
}

/**
 * The record's columns and filters against its source's declared columns, each problem on the
 * property it is about (`columns[1].key`, `filters[0].operator`).
 */
export function customReportProblems(record: Readonly<Record<string, unknown>>): PropertyError[] {
  const source = sourceDeclaration(String(record.source));
  if (!source) return [];
  const problems: PropertyError[] = [];
  const add = (property: string, message: string) =>
    problems.push({ property, constraints: { custom: message } });
  const known = (key: unknown) => source.columns.find((c) => c.key === key);
  const columns = (record.columns ?? []) as { key?: unknown }[];
  if (columns.length === 0) add('columns', 'Choose at least one column');
  const seen = new Set<unknown>();
  columns.forEach((column, i) => {
    if (!known(column.key))
      add(`columns[${i}].key`, `${source.label} have no column '${String(column.key)}'`);
    else if (seen.has(column.key)) add(`columns[${i}].key`, 'is chosen twice');
    seen.add(column.key);
  });
  const filters = (record.filters ?? []) as Partial<ReportFilter>[];
  filters.forEach((filter, i) => {
    const column = known(filter.column);
    if (!column) {
      add(`filters[${i}].column`, `${source.label} have no column '${String(filter.column)}'`);
      return;
    }
    const operators = columnOperators(column);
    if (operators.length === 0) {
      add(`filters[${i}].column`, `${column.label} cannot be filtered on`);
      return;
    }
    if (!operators.includes(filter.operator as FilterOperator)) {
      add(
        `filters[${i}].operator`,
        `${column.label} takes ${operators.map(filterOperatorLabel).join(', ')}`,
      );
      return;
    }
    const parsed = parseFilterValue(column, String(filter.value ?? ''));
    if ('problem' in parsed) add(`filters[${i}].value`, parsed.problem);
  });
  return problems;
}

const ZColumnType = z.enum(COLUMN_TYPES);

export const ZReportColumn = z.object({
  key: z.string(),
  label: z.string(),
  type: ZColumnType,
  unit: z.string().nullable(),
  options: z.array(z.string()).optional(),
  /** Words for the options that are codes; a value without one is shown as it is. */
  optionLabels: z.record(z.string(), z.string()).optional(),
  operators: z.array(z.enum(FILTER_OPERATORS)),
});
export type TReportColumn = z.infer<typeof ZReportColumn>;

export const ZReportSourceInfo = z.object({
  key: z.enum(CUSTOM_REPORT_SOURCES),
  label: z.string(),
  description: z.string(),
  resource: z.string(),
  action: z.string(),
  /** Whether the caller holds the source's own permission in this facility. */
  allowed: z.boolean(),
  columns: z.array(ZReportColumn),
});
export type TReportSourceInfo = z.infer<typeof ZReportSourceInfo>;

export const ZReportInfo = z.object({ sources: z.array(ZReportSourceInfo) });
export type TReportInfo = z.infer<typeof ZReportInfo>;

export const ZReportConfig = z.object({ config: ZReportSourceInfo });
export type TReportConfig = z.infer<typeof ZReportConfig>;

/** Spec §9: custom report data is paged by 10. */
export const CUSTOM_REPORT_PER_PAGE = 10;

export const ZReportDataQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(CUSTOM_REPORT_PER_PAGE),
});
export type TReportDataQuery = z.infer<typeof ZReportDataQuery>;

export const ZCell = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type TCell = z.infer<typeof ZCell>;

export const ZReportDataPage = z.object({
  columns: z.array(ZReportColumn),
  data: z.array(z.record(z.string(), ZCell)),
  total: z.number().int(),
  pageNumber: z.number().int(),
  perPage: z.number().int(),
});
export type TReportDataPage = z.infer<typeof ZReportDataPage>;

export function columnInfo(column: SourceColumn): TReportColumn {
  return {
    key: column.key,
    label: column.label,
    type: column.type,
    unit: column.unit ?? null,
    ...(column.options ? { options: [...column.options] } : {}),
    ...(column.optionLabels ? { optionLabels: { ...column.optionLabels } } : {}),
    operators: [...columnOperators(column)],
  };
}
