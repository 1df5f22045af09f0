import { limitsSnapshotNameSql } from '#server/modules/audit/audit-names.ts';
import { overridesContent } from './kinds/worst-case-overrides.ts';
import { AppError } from '#core/errors/errors.ts';
import type {
  TDecision,
  TImpactItem,
  TImpactPair,
  TImpactSummary,
} from '#core/schemas/change-assessments.schemas.ts';
import { limitStays } from '#core/assessments/criteria-sentence.ts';
import {
  COVERAGE_LABELS,
  type TAssessmentResult,
  type TCoverageState,
} from '#core/schemas/cleaning-assessments.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { tableAsOf } from '#server/entities/entity-history.ts';
import { impactPdfContent } from '../change-assessments/impact-pdf.ts';
import { formatQuantity } from '#core/units/format-number.ts';
import {
  controlledAt,
  facts,
  isoSql,
  recordSignatures,
  signaturesAt,
  table,
  th,
  versionText,
  when,
  type RecordSignature,
  type RecordVersionAt,
} from './record-report-parts.ts';
import type { ReportKind } from './report-kinds.ts';

/*
 * The reports of a change assessment and of a cleaning assessment (README.md "Kinds"), read as
 * the record stood at the report's moment: its controlled version kept then, its signatures
 * given by then, and its own rows through the kept versions (record_versions).
 */

type VersionAt = Omit<RecordVersionAt, 'content'> | null;
const stateOf = (v: RecordVersionAt | null): VersionAt =>
  v ? { versionNumber: v.versionNumber, status: v.status, signatureState: v.signatureState } : null;

async function facilityName(q: Queryable, facilityId: number): Promise<string> {
  const [row] = await q.query<{ name: string }>('select name from facilities where id = $1', [
    facilityId,
  ]);
  return row?.name ?? '';
}

/** Who wrote the assessment's audit rows of `action` by `asOf`, oldest first. */
async function auditRows(
  q: Queryable,
  facilityId: number,
  id: number,
  action: string,
  asOf: string,
) {
  return q.query<{ user_name: string | null; at: string; new_values: Record<string, unknown> }>(
    `select user_name, ${isoSql('at')} as at, new_values from audit_log
      where facility_id = $1 and domain = 'ChangeAssessment' and action = $2
        and entity_id = $3 and at <= $4
      order by id`,
    [facilityId, action, String(id), asOf],
  );
}

interface ChangeAssessmentData {
  facilityName: string;
  number: string;
  title: string;
  changeType: string;
  description: string;
  mocId: number | null;
  /** The change-of-control record by its number and title (issue 30); absent in older reports. */
  mocName?: string | null;
  version: VersionAt;
  cancelled: { at: string; reason: string | null } | null;
  changes: { label: string; reason: string }[];
  evaluation: { evaluatedAt: string; evaluatedByName: string; summary: TImpactSummary } | null;
  /** Why the items are not printed: the evaluation was done again after the report's moment. */
  itemsNote: string | null;
  items: TImpactItem[];
  /**
   * The evaluation's pairs whose limits stay while a criterion that does not govern moved, which
   * the report explains ("Why the limits stay"); absent when there are none, so the data of a
   * report without them reads as it did before they were printed.
   */
  staying?: TImpactPair[];
  signatures: RecordSignature[];
}

interface ContentDecision {
  key: string;
  decision: TDecision;
  justification: string;
}

/**
 * The decisions in the content kept then, each with who made it and when: the latest `Decide`
 * audit row by then that says the same (the decisions table keeps only the latest).
 */
async function decisionsAt(
  q: Queryable,
  facilityId: number,
  id: number,
  asOf: string,
  decisions: readonly ContentDecision[],
) {
  const by = new Map<string, { name: string; at: string; d: ContentDecision }>();
  for (const row of await auditRows(q, facilityId, id, 'Decide', asOf))
    for (const d of (row.new_values.decisions ?? []) as ContentDecision[])
      by.set(d.key, { name: row.user_name ?? '', at: row.at, d });
  return new Map(
    decisions.map((d) => {
      const seen = by.get(d.key);
      const same = seen?.d.decision === d.decision && seen.d.justification === d.justification;
      return [
        d.key,
        {
          decision: d.decision,
          justification: d.justification,
          decidedBy: 0,
          decidedByName: same ? seen.name : '',
          decidedAt: same ? seen.at : '',
        },
      ];
    }),
  );
}

export const changeAssessmentReport: ReportKind = {
  // The report shows the record: it needs the record's own read permission too.
  permission: { resource: 'FacilityCleaningEvaluation', action: 'Get' },
  record: (parameters) => ({
    documentType: 'ChangeAssessment',
    documentId: parameters.kind === 'change-assessment' ? parameters.changeAssessmentId : 0,
  }),
  async compute(q, facilityId, parameters, asOf) {
    if (parameters.kind !== 'change-assessment') throw new Error('not a change-assessment report');
    const id = parameters.changeAssessmentId;
    const version = await controlledAt(q, facilityId, 'ChangeAssessment', id, asOf);
    if (!version) throw new AppError('NotFoundError', `Change assessment ${id} was not found`);
    const c = version.content as {
      number: string;
      title: string;
      changeType: string;
      description: string;
      mocId: number | null;
      changes: { label: string; reason: string }[];
      evaluation: { evaluatedAt: string; summary: TImpactSummary } | null;
      decisions: ContentDecision[];
    };
    const [header] = await q.query<{ cancelled_at: string | null; cancel_reason: string | null }>(
      `select ${isoSql('cancelled_at')} as cancelled_at, cancel_reason
         from ${tableAsOf('change_assessments', 1, 2, 3)}`,
      [facilityId, asOf, id],
    );
    let evaluation: ChangeAssessmentData['evaluation'] = null;
    let items: TImpactItem[] = [];
    let staying: TImpactPair[] = [];
    let itemsNote: string | null = null;
    if (c.evaluation) {
      const evaluators = await auditRows(q, facilityId, id, 'Evaluate', asOf);
      evaluation = {
        evaluatedAt: c.evaluation.evaluatedAt,
        evaluatedByName: evaluators.at(-1)?.user_name ?? '',
        summary: c.evaluation.summary,
      };
      // The evaluation row is replaced by the next one: its items are those seen only while
      // it is the one kept then.
      const [stored] = await q.query<{
        at: string;
        items: Omit<TImpactItem, 'decision'>[];
        pairs: TImpactPair[] | null;
      }>(
        `select evaluated_at as at, items, pairs from change_assessment_evaluations
          where assessment_id = $1 and facility_id = $2`,
        [id, facilityId],
      );
      if (stored && new Date(stored.at).toISOString() === c.evaluation.evaluatedAt) {
        const decided = await decisionsAt(q, facilityId, id, asOf, c.decisions);
        items = stored.items.map((item) => ({ ...item, decision: decided.get(item.key) ?? null }));
        staying = (stored.pairs ?? []).filter(limitStays);
      } else {
        itemsNote =
          'The change was evaluated again after this report: the items of this evaluation are no longer stored.';
      }
    }
    const data: ChangeAssessmentData = {
      facilityName: await facilityName(q, facilityId),
      number: c.number,
      title: c.title,
      changeType: c.changeType,
      description: c.description,
      mocId: c.mocId,
      mocName:
        c.mocId === null
          ? null
          : ((
              await q.query<{ name: string }>(
                `select moc_number || ' ' || name as name from moc_records
                  where facility_id = $1 and id = $2`,
                [facilityId, c.mocId],
              )
            )[0]?.name ?? null),
      version: stateOf(version),
      cancelled: header?.cancelled_at
        ? { at: header.cancelled_at, reason: header.cancel_reason }
        : null,
      changes: c.changes.map((change) => ({ label: change.label, reason: change.reason })),
      evaluation,
      itemsNote,
      items,
      ...(staying.length > 0 ? { staying } : {}),
      signatures: await signaturesAt(q, facilityId, 'ChangeAssessment', id, asOf),
    };
    return { title: `Change assessment ${c.number} · ${c.title}`, data };
  },
  pdfContent(raw, settings, record) {
    const data = raw as ChangeAssessmentData;
    const header = facts([
      ['Change assessment', `${data.number}: ${data.title}`],
      ['Type of change', data.changeType],
      ['Description', data.description || '—'],
      ['Change-of-control record', data.mocId === null ? '—' : (data.mocName ?? 'Recorded')],
      ['Record', versionText(data.version as RecordVersionAt | null, record)],
      [
        'Cancelled',
        data.cancelled
          ? `${when(data.cancelled.at, settings)}: ${data.cancelled.reason ?? ''}`
          : 'No',
      ],
    ]);
    const impact = data.evaluation
      ? impactPdfContent(
          {
            facilityName: data.facilityName,
            number: data.number,
            title: data.title,
            changeType: data.changeType as never,
            evaluatedAt: data.evaluation.evaluatedAt,
            evaluatedByName: data.evaluation.evaluatedByName,
            changes: data.changes,
            ...(settings ? { settings } : {}),
          },
          data.items,
          data.evaluation.summary,
          data.staying ?? [],
        )
      : [
          { text: 'Staged changes', style: 'h2' },
          data.changes.length === 0
            ? { text: 'No changes are staged.', italics: true }
            : table(
                [20, '*', '*'],
                ['#', 'Change', 'Reason'],
                data.changes.map((c, i) => [String(i + 1), arrows(c.label), c.reason]),
              ),
          { text: 'The change was not evaluated at the time of the report.', italics: true },
        ];
    return [
      header,
      ...impact,
      ...(data.itemsNote ? [{ text: data.itemsNote, italics: true }] : []),
      ...recordSignatures(data.signatures, settings, record),
    ];
  },
};

interface CleaningAssessmentData {
  number: string;
  reason: string | null;
  startedAt: string;
  completedAt: string | null;
  version: VersionAt;
  result: TAssessmentResult | null;
  /** The result's limits snapshot by name (issue 30); absent in reports made before. */
  limitsSnapshotName?: string | null;
  /** The prior assessment by its number (issue 30); absent in older reports. */
  priorNumber?: string | null;
  tasks: {
    train: string;
    product: string;
    gap: string;
    proposedStudyType: string;
    scope: string;
    dueDate: string;
    status: string;
    justification: string | null;
    decidedByName: string | null;
    decidedAt: string | null;
  }[];
  signatures: RecordSignature[];
}

// Roboto, the font pdfmake embeds, has no arrows.
const arrows = (text: string) => text.replaceAll('→', '->');

const CELL_TEXT: Record<TCoverageState, string> = {
  study: 'Study',
  representative: 'Representative',
  tightened: 'Tightened',
  notCovered: 'Not covered',
};
const TRAINS_PER_TABLE = 7;

/** Products down, trains across: how each cell is covered. */
function coverageMatrix(result: TAssessmentResult): unknown[] {
  const products = [...new Set(result.coverage.map((c) => c.product))];
  const trains = [...new Set(result.coverage.map((c) => c.train))];
  const cell = new Map(result.coverage.map((c) => [`${c.product}\u0000${c.train}`, c]));
  const tables: unknown[] = [];
  for (let start = 0; start < trains.length; start += TRAINS_PER_TABLE) {
    const some = trains.slice(start, start + TRAINS_PER_TABLE);
    tables.push({
      table: {
        headerRows: 1,
        widths: [110, ...some.map(() => '*')],
        body: [
          [th('Product \\ Train'), ...some.map(th)],
          ...products.map((product) => [
            { text: product, bold: true },
            ...some.map((train) => {
              const c = cell.get(`${product}\u0000${train}`);
              if (!c) return '';
              const text = CELL_TEXT[c.state];
              return c.representative ? `${text} (${c.representative})` : text;
            }),
          ]),
        ],
      },
      layout: 'lightHorizontalLines',
      margin: [0, 0, 0, 6],
    });
  }
  return tables;
}

function diffContent(result: TAssessmentResult, priorNumber: string | null | undefined): unknown[] {
  const { diff } = result;
  if (diff.priorId === null)
    return [{ text: 'This is the first assessment of the facility.', italics: true }];
  const pairs = (list: { product: string; train: string }[]) =>
    list.length === 0 ? 'none' : list.map((g) => `${g.product} on ${g.train}`).join(', ');
  return [
    facts([
      ['Prior assessment', priorNumber ?? 'Recorded'],
      ['New gaps', pairs(diff.newGaps)],
      ['Closed gaps', pairs(diff.closedGaps)],
      [
        'Worst-case changes',
        diff.worstCaseChanges.length === 0
          ? 'none'
          : diff.worstCaseChanges
              .map((w) => `${w.train}: ${w.before ?? '—'} -> ${w.after ?? '—'}`)
              .join(', '),
      ],
      [
        'Change assessments approved',
        diff.changeAssessments.length === 0
          ? 'none'
          : diff.changeAssessments.map((c) => `${c.number} ${c.title}`).join(', '),
      ],
    ]),
  ];
}

export const cleaningAssessmentReport: ReportKind = {
  fontSize: 7,
  permission: { resource: 'FacilityCleaningEvaluation', action: 'Get' },
  record: (parameters) => ({
    documentType: 'CleaningAssessment',
    documentId: parameters.kind === 'cleaning-assessment' ? parameters.cleaningAssessmentId : 0,
  }),
  async compute(q, facilityId, parameters, asOf) {
    if (parameters.kind !== 'cleaning-assessment')
      throw new Error('not a cleaning-assessment report');
    const id = parameters.cleaningAssessmentId;
    const [row] = await q.query<{
      number: string;
      reason: string | null;
      started_at: string;
      completed_at: string | null;
      result: TAssessmentResult | null;
    }>(
      `select number, reason, ${isoSql('started_at')} as started_at,
              ${isoSql('completed_at')} as completed_at, result
         from ${tableAsOf('cleaning_assessments', 1, 2, 3)}`,
      [facilityId, asOf, id],
    );
    if (!row) throw new AppError('NotFoundError', `Cleaning assessment ${id} was not found`);
    const tasks = await q.query<CleaningAssessmentData['tasks'][number]>(
      `select train_name as train, product_name as product, gap,
              proposed_study_type as "proposedStudyType", scope, due_date::text as "dueDate",
              status, justification, signer_printed_name as "decidedByName",
              ${isoSql('decided_at')} as "decidedAt"
         from ${tableAsOf('qualification_tasks', 1, 2)}
        where evaluation_id = $3 order by id`,
      [facilityId, asOf, id],
    );
    const data: CleaningAssessmentData = {
      number: row.number,
      reason: row.reason,
      startedAt: row.started_at,
      completedAt: row.completed_at,
      version: stateOf(await controlledAt(q, facilityId, 'CleaningAssessment', id, asOf)),
      result: row.result,
      priorNumber: row.result?.diff.priorId
        ? ((
            await q.query<{ number: string }>(
              'select number from cleaning_assessments where facility_id = $1 and id = $2',
              [facilityId, row.result.diff.priorId],
            )
          )[0]?.number ?? null)
        : null,
      limitsSnapshotName: row.result?.limitsSnapshotId
        ? ((
            await q.query<{ name: string | null }>(
              `select ${limitsSnapshotNameSql('$1::int')} as name`,
              [row.result.limitsSnapshotId],
            )
          )[0]?.name ?? null)
        : null,
      tasks,
      signatures: await signaturesAt(q, facilityId, 'CleaningAssessment', id, asOf),
    };
    return { title: `Cleaning assessment ${row.number}`, data };
  },
  pdfContent(raw, settings, record) {
    const data = raw as CleaningAssessmentData;
    const { result } = data;
    const header = facts([
      ['Cleaning assessment', data.number],
      ['Reason', data.reason ?? '—'],
      ['Started', when(data.startedAt, settings)],
      ['Completed', when(data.completedAt, settings)],
      ['Record', versionText(data.version as RecordVersionAt | null, record)],
      ...(result
        ? ([
            [
              'Limits snapshot',
              data.limitsSnapshotName ?? (result.limitsSnapshotId === null ? '—' : 'Recorded'),
            ],
            ['Engine input (SHA-256)', result.inputHash],
            [
              'Coverage',
              `${result.counts.cells} product × train cells: ${result.counts.study} by a study, ` +
                `${result.counts.representative} by a representative, ` +
                `${result.counts.tightened} tightened since, ${result.counts.notCovered} not covered`,
            ],
          ] as [string, string][])
        : []),
    ]);
    if (!result)
      return [
        header,
        { text: 'The assessment had not completed at the time of the report.', italics: true },
        ...recordSignatures(data.signatures, settings, record),
      ];
    return [
      header,
      { text: 'Worst case per train', style: 'h2' },
      result.worstCases.length === 0
        ? { text: 'No trains.', italics: true }
        : table(
            [110, 110, 70, '*'],
            ['Train', 'Worst-case product', 'Lowest MACO', 'Reason'],
            result.worstCases.map((w) => [
              w.train,
              w.product ?? '—',
              w.lowestMaco === null ? '—' : formatQuantity(w.lowestMaco, 'mg'),
              arrows(w.reason),
            ]),
          ),
      ...overridesContent(result.overrides ?? [], settings),
      { text: 'Coverage matrix', style: 'h2' },
      {
        text: Object.values(COVERAGE_LABELS).join(' · '),
        italics: true,
        margin: [0, 0, 0, 4],
      },
      ...(result.coverage.length === 0
        ? [{ text: 'No product is made on any train.', italics: true }]
        : coverageMatrix(result)),
      { text: 'Since the prior assessment', style: 'h2' },
      ...diffContent(result, data.priorNumber),
      { text: 'Qualification tasks', style: 'h2' },
      data.tasks.length === 0
        ? { text: 'No qualification tasks.', italics: true }
        : table(
            [80, 80, 55, 80, '*', 50, 50, '*'],
            ['Train', 'Product', 'Gap', 'Proposed study', 'Scope', 'Due', 'Status', 'Decision'],
            data.tasks.map((task) => [
              task.train,
              task.product,
              COVERAGE_LABELS[task.gap as TCoverageState] ?? task.gap,
              task.proposedStudyType,
              task.scope,
              task.dueDate,
              task.status,
              task.decidedByName
                ? `${task.decidedByName}, ${when(task.decidedAt, settings)}: ${task.justification ?? ''}`
                : '—',
            ]),
          ),
      ...(result.uncomputable.length === 0
        ? []
        : [
            { text: 'Left out: their data cannot be computed', style: 'h2' },
            { ul: result.uncomputable.map((u) => `${u.name}: ${u.reason}`) },
          ]),
      ...recordSignatures(data.signatures, settings, record),
    ];
  },
};
