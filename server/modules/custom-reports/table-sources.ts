import { MEASURES } from '#core/units/measures.ts';
import { convertValue } from '#core/units/quantity.ts';
import type { Unit } from '#core/units/units.ts';
import type {
  CustomReportSource,
  FilterOperator,
  SourceColumn,
} from '#core/schemas/custom-reports.schemas.ts';
import type { SqlValue } from '#server/db/db.ts';
import { likePattern } from '#server/db/paging.ts';

/**
 * A source read from tables: the rows of one facility ($1) and an SQL expression per declared
 * column. Every expression here is fixed text; what the user chose reaches the query only as a
 * column key looked up in this map and as a bound parameter.
 */
export interface TableSource {
  from: string;
  order: string;
  expressions: Record<string, string>;
}

const text = (json: string) => `nullif(concat_ws(' ', ${json}->>'value', ${json}->>'unit'), '')`;

/** A stored surface area in sqcm, whatever unit it was entered in. */
function surfaceAreaSqcm(json: string): string {
  const cases = (MEASURES.surfaceArea.allowed as readonly Unit[])
    .map((u) => `when '${u}' then ${convertValue(1, u, 'sqcm')}`)
    .join(' ');
  return `((${json}->>'value')::double precision * case ${json}->>'unit' ${cases} end)`;
}

export const TABLE_SOURCES: Record<Exclude<CustomReportSource, 'pairs'>, TableSource> = {
  products: {
    from: 'products p where p.facility_id = $1 and p.archived_at is null',
    order: 'lower(p.name), p.id',
    expressions: {
      name: 'p.name',
      externalId: 'p.external_id',
      dosageForm: 'p.dosage_form',
      maxDailyDose: text('p.max_daily_dose'),
      minBatchSize: text('p.min_batch_size'),
      activeCount: 'jsonb_array_length(p.actives)',
      updatedAt: 'p.updated_at',
    },
  },
  equipment: {
    from: 'equipment e where e.facility_id = $1 and e.archived_at is null',
    order: 'lower(e.name), e.id',
    expressions: {
      name: 'e.name',
      externalId: 'e.external_id',
      surfaceArea: surfaceAreaSqcm('e.surface_area'),
      material: 'e.material',
      roomGrade: 'e.room_grade',
      updatedAt: 'e.updated_at',
    },
  },
  sampleResults: {
    from: `sample_results r
      join study_runs sr on sr.id = r.run_id
      join studies s on s.id = sr.study_id
      join equipment e on e.id = r.equipment_id
      join sampling_locations l on l.id = r.sampling_location_id
      join analytical_methods m on m.id = r.analytical_method_id
     where r.facility_id = $1`,
    order: 's.seq, sr.sequence, r.id',
    expressions: {
      study: `'ST-' || lpad(s.seq::text, 4, '0')`,
      studyTitle: 's.title',
      run: 'sr.sequence',
      productBatch: 'sr.product_batch',
      equipment: 'e.name',
      samplingLocation: 'l.name',
      sampleType: 'r.sample_type',
      analyticalMethod: 'm.name',
      batchNumber: 'r.batch_number',
      censoring: 'r.censoring',
      rawValue: 'r.raw_value',
      unit: 'r.unit',
      percentOfLimit: 'r.percent_of_limit',
      passed: 'r.passed',
      superseded: '(r.superseded_by is not null)',
      takenAt: 'r.taken_at',
    },
  },
  auditEntries: {
    from: 'audit_log a where a.facility_id = $1',
    order: 'a.id desc',
    expressions: {
      at: 'a.at',
      userName: 'a.user_name',
      domain: 'a.domain',
      action: 'a.action',
      entityId: 'a.entity_id',
      reason: 'a.reason',
    },
  },
};

const SQL_OPERATORS: Record<Exclude<FilterOperator, 'Contains'>, string> = {
  EqualTo: '=',
  LessThan: '<',
  LessThanEqualTo: '<=',
  GreaterThan: '>',
  GreaterThanEqualTo: '>=',
};

export interface ParsedFilter {
  column: SourceColumn;
  operator: FilterOperator;
  value: string | number | boolean;
}

/** One filter as an SQL condition over a bound parameter (`params` receives its value). */
export function filterCondition(
  source: TableSource,
  filter: ParsedFilter,
  params: SqlValue[],
): string {
  const expression = source.expressions[filter.column.key];
  if (!expression) throw new Error(`no expression for ${filter.column.key}`);
  const bind = (value: SqlValue) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.operator === 'Contains') {
    return `${expression} ilike ${bind(likePattern(String(filter.value)))}`;
  }
  const op = SQL_OPERATORS[filter.operator];
  switch (filter.column.type) {
    case 'text':
      return `lower(${expression}) ${op} lower(${bind(String(filter.value))})`;
    case 'date':
      // A date compares with the day of the moment in UTC.
      return `(${expression} at time zone 'UTC')::date ${op} ${bind(String(filter.value))}::date`;
    case 'number':
      return `${expression} ${op} ${bind(filter.value as number)}::double precision`;
    case 'boolean':
      return `${expression} ${op} ${bind(filter.value as boolean)}::boolean`;
    case 'enum':
      return `${expression} ${op} ${bind(String(filter.value))}`;
  }
}
