import {
  DEFAULT_DATE_TIME_SETTINGS,
  formatDateTime,
  type DateTimeSettings,
} from '#core/datetime/format-date-time.ts';
import type { TTargetOverride } from '#core/schemas/worst-products.schemas.ts';
import { formatQuantity } from '#core/units/format-number.ts';
import { th } from '../controlled-pdf.ts';
import type { XlsxCell } from './report-xlsx.ts';

/*
 * The signed overrides of the worst-case product in force (issue 32), as the worst-case ranking
 * report prints them: what was computed, what the site chose, the limit the study is judged
 * against, the justification and who signed it (EU GMP Annex 15 §10.12; 21 CFR 11.50).
 */

const KIND_WORDS: Record<TTargetOverride['kind'], string> = {
  train: 'Train',
  equipment: 'Equipment',
};

const limitOf = (o: TTargetOverride, digits?: number) =>
  o.groupLimit === null
    ? 'none can be computed'
    : `${formatQuantity(o.groupLimit, 'mg', digits)} (${o.groupLimitProduct})`;

/** A PDF section (none when no override is in force). */
export function overridesContent(
  overrides: readonly TTargetOverride[],
  settings: DateTimeSettings,
): unknown[] {
  if (overrides.length === 0) return [];
  return [
    { text: 'Worst-case overrides in force', style: 'h2' },
    {
      table: {
        headerRows: 1,
        widths: [80, 60, 60, 80, '*', 90],
        body: [
          [
            th('Train or equipment'),
            th('Computed worst case'),
            th('Chosen worst case'),
            th('Lowest MACO judged against'),
            th('Justification'),
            th('Signed by'),
          ],
          ...overrides.map((o) => [
            `${KIND_WORDS[o.kind]} ${o.target}`,
            o.computedProduct ?? '—',
            o.product,
            limitOf(o, settings.significantDigits),
            o.justification,
            `${o.signedBy}, ${formatDateTime(o.signedAt, settings)} (${o.meaning})`,
          ]),
        ],
      },
      layout: 'lightHorizontalLines',
    },
  ];
}

/** The same as an xlsx sheet. */
export function overridesSheet(overrides: readonly TTargetOverride[]) {
  const rows: XlsxCell[][] = [
    [
      'Train or equipment',
      'Name',
      'Computed worst case',
      'Chosen worst case',
      'Lowest MACO judged against (mg)',
      'Of product',
      'Justification',
      'Signed by',
      'Signed at (UTC)',
      'Meaning',
    ],
    ...overrides.map((o) => [
      KIND_WORDS[o.kind],
      o.target,
      o.computedProduct,
      o.product,
      o.groupLimit,
      o.groupLimitProduct,
      o.justification,
      o.signedBy,
      formatDateTime(o.signedAt, { ...DEFAULT_DATE_TIME_SETTINGS, timezone: 'UTC' }),
      o.meaning,
    ]),
  ];
  return { name: 'Overrides', rows };
}
