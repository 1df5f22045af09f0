import { cleaningAgentLimitRows } from '#server/modules/limits/cleaning-agent-limits.ts';
import { formatQuantity, unitLabel } from '#core/units/format-number.ts';
import { agentCriterionLabel } from '#core/labels/enum-labels.ts';
import { reportTable } from '../controlled-pdf.ts';
import type { ReportKind } from '../report-kinds.ts';
import { leftOutContent, leftOutSheet } from './left-out.ts';
import { cellNumber, sheetsXlsx } from './report-xlsx.ts';

/*
 * Cleaning-agent limits (spec §3 report kinds): each agent's MACO and SAL in every product that
 * may follow, under the Detergent policy, as GET limits/cleaning-agents answers them then.
 */

type Data = Awaited<ReturnType<typeof cleaningAgentLimitRows>>;
type Row = Data['limits'][number];

const COLUMNS: [header: string, key: keyof Row & string, unit: string | null][] = [
  ['Cleaning agent', 'agent', null],
  ['Next product', 'next', null],
  ['Health-based MACO (mg)', 'health', 'mg'],
  ['LD50-based MACO (mg)', 'ld50', 'mg'],
  ['General limit (ARL) MACO (mg)', 'arl', 'mg'],
  ['Agent ppm ceiling MACO (mg)', 'ceiling', 'mg'],
  ['MACO (mg)', 'maco', 'mg'],
  ['Governing criterion', 'governing', null],
  [`Shared area (${unitLabel('sqcm')})`, 'area', 'sqcm'],
  [`SAL (${unitLabel('mg/sqcm')})`, 'sal', 'mg/sqcm'],
];

export const cleaningAgentLimitsKind: ReportKind = {
  async compute(q, facilityId, _parameters, asOf) {
    const { limits, uncomputable } = await cleaningAgentLimitRows(q, facilityId, { asOf });
    return { title: 'Cleaning agent limits', data: { limits, uncomputable } };
  },
  pdfContent(raw, settings) {
    const data = raw as Data;
    const agents = new Set(data.limits.map((l) => l.agent));
    return [
      {
        text: `${agents.size} cleaning agents · ${data.limits.length} agent and next-product limits · Detergent cleaning limit policy`,
        margin: [0, 0, 0, 8],
      },
      data.limits.length === 0
        ? {
            text: 'No cleaning agent has a limit: add cleaning agents with a PDE or an LD50.',
            italics: true,
          }
        : reportTable(
            COLUMNS.map(([header]) => header),
            [75, '*', 50, 50, 50, 50, 50, 50, 50, 50],
            data.limits.map((l) =>
              COLUMNS.map(([, key, unit]) => {
                const v = l[key];
                if (key === 'governing') return v === null ? '—' : agentCriterionLabel(String(v));
                if (unit === null) return v === null ? '—' : String(v);
                return typeof v === 'number'
                  ? formatQuantity(v, unit, settings.significantDigits)
                  : '—';
              }),
            ),
          ),
      ...leftOutContent(data.uncomputable),
    ];
  },
  xlsx(raw, meta) {
    const data = raw as Data;
    return sheetsXlsx(
      [
        {
          name: 'Cleaning agent limits',
          rows: [
            COLUMNS.map(([header]) => header),
            ...data.limits.map((l) =>
              COLUMNS.map(([, key, unit]) => {
                const v = l[key];
                if (key === 'governing') return v === null ? null : agentCriterionLabel(String(v));
                return unit === null ? (v as string | null) : cellNumber(v as number | null);
              }),
            ),
          ],
        },
        leftOutSheet(data.uncomputable),
      ],
      meta.significantDigits,
    );
  },
};
