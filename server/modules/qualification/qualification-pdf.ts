import { formatDateTime, type DateTimeSettings } from '#core/datetime/format-date-time.ts';
import type { CaseResult, QualificationPack } from '#core/qualification/pack.ts';
import { readablePath } from '#core/qualification/readable-path.ts';
import { formatNumber } from '#core/units/format-number.ts';
import { reportTable } from '#server/modules/reports/controlled-pdf.ts';

/*
 * The pack on paper. Its first lines say whether it passed, and name every failed case, so that
 * a reviewer who reads only the first page cannot miss a failure (21 CFR 211.68(b): the
 * calculations are checked; EU GMP Annex 15 §3.3: deviations are reported before acceptance).
 */

/** How many checked values of one case are printed; the JSON carries them all. */
const VALUES_PER_CASE = 12;

const PASS = 'Pass';
const FAIL = 'FAIL';

/** A problem names its value by path first: that path in words, the rest as it is. */
function readableProblem(problem: string): string {
  const named = /^([^\s:]+): ([\s\S]*)$/.exec(problem);
  return named ? `${readablePath(named[1]!)}: ${named[2]}` : problem;
}

function outcomeBlock(pack: QualificationPack, settings: DateTimeSettings): unknown[] {
  const { summary } = pack;
  const failed = pack.outcome === 'failed';
  const headline = failed
    ? `QUALIFICATION FAILED: ${summary.failed} of ${summary.cases} cases failed` +
      (pack.installation.problems.length > 0
        ? `, ${pack.installation.problems.length} installation problems`
        : '')
    : `QUALIFICATION PASSED: all ${summary.cases} cases passed on the engine and through the API`;
  return [
    { text: headline, bold: true, fontSize: 14, color: failed ? '#b00020' : '#1b5e20' },
    ...(failed
      ? [
          {
            text: 'Failed: ' + [...summary.failedCases, ...pack.installation.problems].join('; '),
            color: '#b00020',
            margin: [0, 4, 0, 0],
          },
        ]
      : []),
    {
      text: `Run on ${formatDateTime(pack.generatedAt, settings)} (${settings.timezone}) · API pass through ${pack.instance}`,
      margin: [0, 4, 0, 8],
    },
  ];
}

function setsTable(pack: QualificationPack): unknown {
  const sets = [...new Set(pack.operational.map((r) => r.set))];
  const label: Record<string, string> = {
    worked: 'Worked examples (published and derived, the golden set)',
    contract: "Cases of the limits engine's command-line contract",
    own: "The project's own cases",
    site: "The site's case files",
  };
  return reportTable(
    ['Cases', 'Run', 'Passed', 'Failed'],
    ['*', 40, 40, 40],
    sets.map((set) => {
      const rows = pack.operational.filter((r) => r.set === set);
      const passed = rows.filter((r) => r.pass).length;
      return [label[set] ?? set, String(rows.length), String(passed), String(rows.length - passed)];
    }),
  );
}

function installationContent(pack: QualificationPack): unknown[] {
  const i = pack.installation;
  return [
    { text: 'Installation report', style: 'h2', pageBreak: 'before' },
    reportTable(
      ['Item', 'Installed'],
      [160, '*'],
      [
        ['Application', `${i.application.name} ${i.application.version}`],
        ['Git commit', i.application.commit ?? 'not known (no git checkout)'],
        ['Node', i.node],
        ['Database', `${i.database.kind}: ${i.database.version}`],
        ['Installation problems', i.problems.length === 0 ? 'none' : i.problems.join('; ')],
      ],
    ),
    { text: `Migrations (${i.migrations.length})`, style: 'h2', margin: [0, 10, 0, 4] },
    reportTable(
      ['Migration', 'SHA-256 (migrations.sha256)', 'Applied'],
      [190, '*', 40],
      i.migrations.map((m) => [m.name, m.sha256 ?? 'not listed', m.applied ? 'yes' : 'NO']),
    ),
    { text: 'Configuration (secrets masked)', style: 'h2', margin: [0, 10, 0, 4] },
    reportTable(
      ['Variable', 'Value'],
      [190, '*'],
      i.configuration.map((c) => [c.name, c.value]),
    ),
    {
      text: `Dependencies (${i.dependencies.length}, package-lock.json)`,
      style: 'h2',
      margin: [0, 10, 0, 4],
    },
    reportTable(
      ['Package', 'Version', 'Integrity', 'Use'],
      [160, 60, '*', 30],
      i.dependencies.map((d) => [d.name, d.version, d.integrity ?? '—', d.dev ? 'dev' : 'run']),
    ),
  ];
}

/** Each leaf of an expectation with its path: what a reviewer compares by eye. */
function leaves(value: unknown, path = ''): [string, unknown][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${path}[${i}]`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  return [[path, value]];
}

function at(answer: unknown, path: string): unknown {
  const parts = path.match(/[^.[\]]+/g) ?? [];
  let here: unknown = answer;
  for (const part of parts) {
    if (here === null || typeof here !== 'object') return undefined;
    here = (here as Record<string, unknown>)[part];
  }
  return here;
}

/** A field's path (a refused property) reads in words like the value paths do. */
const PROPERTY_PATH = /^[A-Za-z]\w*(\[\d+\])?(\.[A-Za-z]\w*(\[\d+\])?)+$/;

/**
 * Every digit a value is checked with, as the audit trail prints them (15 significant), never
 * a double as JavaScript writes it (0.24261854079263714) nor in e-notation: evidence people read.
 */
const EVIDENCE_DIGITS = 15;

function shown(v: unknown): string {
  if (v === undefined) return '—';
  if (typeof v === 'number') return formatNumber(v, EVIDENCE_DIGITS);
  if (typeof v === 'string' && PROPERTY_PATH.test(v)) return readablePath(v);
  return JSON.stringify(v);
}

function caseDetail(r: CaseResult): unknown[] {
  const values = leaves(r.expected);
  const rows = values
    .slice(0, VALUES_PER_CASE)
    .map(([path, expected]) => [
      readablePath(path),
      shown(expected),
      shown(at(r.engine.answer, path)),
      shown(at(r.api.answer, path)),
    ]);
  const problems = [
    ...r.engine.problems.map((p) => `Engine: ${readableProblem(p)}`),
    ...r.api.problems.map((p) => `API: ${readableProblem(p)}`),
  ];
  return [
    {
      text: `${r.set}/${r.id} · ${r.pass ? PASS : FAIL} · ${r.title}`,
      bold: true,
      color: r.pass ? undefined : '#b00020',
      margin: [0, 8, 0, 2],
    },
    { text: `Requirement: ${r.trace.requirement}`, margin: [0, 0, 0, 1] },
    { text: `Guideline: ${r.trace.guideline}`, margin: [0, 0, 0, 3] },
    reportTable(['Value', 'Expected', 'Engine', 'API'], [150, '*', '*', '*'], rows),
    ...(values.length > VALUES_PER_CASE
      ? [
          {
            text: `${values.length - VALUES_PER_CASE} more values checked; all of them are in the JSON of the pack.`,
            italics: true,
          },
        ]
      : []),
    ...problems.map((p) => ({ text: p, color: '#b00020' })),
  ];
}

function operationalContent(pack: QualificationPack): unknown[] {
  return [
    { text: 'Operational report', style: 'h2', pageBreak: 'before' },
    reportTable(
      ['Case', 'Requirement', 'Engine', 'API', 'Result'],
      [130, '*', 35, 35, 35],
      pack.operational.map((r) => [
        `${r.set}/${r.id}`,
        r.trace.requirement,
        r.engine.pass ? PASS : FAIL,
        r.api.pass ? PASS : FAIL,
        r.pass ? PASS : FAIL,
      ]),
    ),
    { text: 'Expected against actual, case by case', style: 'h2', pageBreak: 'before' },
    ...pack.operational.flatMap(caseDetail),
  ];
}

export function qualificationPdfContent(
  pack: QualificationPack,
  settings: DateTimeSettings,
): unknown[] {
  return [
    ...outcomeBlock(pack, settings),
    setsTable(pack),
    ...installationContent(pack),
    ...operationalContent(pack),
  ];
}
