import { compileLimits } from '#core/limits/compile.ts';
import type { Derivation } from '#core/limits/derivation.ts';
import { explainPair } from '#core/limits/explain.ts';
import { inputLineages } from '#core/hbel/lineage.ts';
import { pdeLineageContent } from './pde-lineage-report.ts';
import { runMatrix } from '#core/limits/matrix.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import type { DateTimeSettings } from '#core/datetime/format-date-time.ts';
import type { TUncomputable } from '#core/schemas/mac-matrix.schemas.ts';
import { DEFAULT_SIGNIFICANT_DIGITS, formatQuantity } from '#core/units/format-number.ts';
import { renderPreviewPdf } from '../reports/controlled-pdf.ts';

export type MacPdfVariant = 'chemical' | 'nitrosamine';

/** What a production's limits PDF is made from: its data, stored and hashed with the report. */
export interface MacPdfData {
  input: LimitsInput;
  /** Products and equipment left out because their stored data cannot be computed, and why. */
  uncomputable: readonly TUncomputable[];
  variant: MacPdfVariant;
  facilityName: string;
  productionName: string;
}

/** Next products per matrix table, so that a wide production still fits a landscape page. */
const COLUMNS_PER_TABLE = 8;

/** A limit as the matrix and the derivations show it; '—' where the engine gives none. */
const limitText = (value: number | undefined, unit: string, digits: number) =>
  value === undefined || !Number.isFinite(value) ? '—' : formatQuantity(value, unit, digits);

/**
 * Each input as given and, where the formula takes another unit, as converted: the facility's
 * significant digits, so '5.602' stands where the engine holds 5.6020599913279625.
 */
function inputsText(d: Derivation, digits: number): string {
  return d.inputs
    .map((i) => {
      const converted =
        i.given.unit === i.unit && i.given.value === i.value
          ? ''
          : ` = ${formatQuantity(i.value, i.unit, digits)}`;
      return `${i.symbol} (${i.name}) = ${formatQuantity(i.given.value, i.given.unit, digits)}${converted}`;
    })
    .join('\n');
}

// Roboto, the font pdfmake embeds, has no arrows: pairs read 'A -> B'.
const th = (text: string) => ({ text, style: 'th' });

function matrixTables(products: string[], maco: Map<string, string>): unknown[] {
  const tables: unknown[] = [];
  for (let start = 0; start < products.length; start += COLUMNS_PER_TABLE) {
    const nexts = products.slice(start, start + COLUMNS_PER_TABLE);
    const body = [
      [th('Previous \\ Next'), ...nexts.map(th)],
      ...products.map((previous) => [
        { text: previous, bold: true },
        ...nexts.map((next) =>
          previous === next
            ? { text: '×', color: '#999999' }
            : (maco.get(`${previous}\u0000${next}`) ?? ''),
        ),
      ]),
    ];
    tables.push({
      table: { headerRows: 1, widths: [110, ...nexts.map(() => '*')], body },
      layout: 'lightHorizontalLines',
      margin: [0, 0, 0, 10],
    });
  }
  return tables;
}

/** The nitrosamine variant's list: each product's actives and the acceptable intake used as HBEL. */
function intakeTable(input: LimitsInput, digits: number): unknown {
  const body: unknown[][] = [[th('Product'), th('Active'), th('Acceptable intake (HBEL)')]];
  for (const product of input.products) {
    for (const active of product.actives) {
      const ai = active.acceptableIntake;
      body.push([
        product.id,
        active.id,
        ai ? formatQuantity(ai.value, `${ai.unit}/day`, digits) : 'not recorded',
      ]);
    }
  }
  return {
    table: { headerRows: 1, widths: [150, 150, '*'], body },
    layout: 'lightHorizontalLines',
  };
}

/** What the limits leave out, said before any number so no reader takes the matrix as whole. */
function leftOutSection(uncomputable: readonly TUncomputable[]): unknown[] {
  if (uncomputable.length === 0) return [];
  return [
    { text: 'Left out of the limits: their data cannot be computed', style: 'h2' },
    {
      table: {
        headerRows: 1,
        widths: [60, 150, '*'],
        body: [
          [th('Kind'), th('Name'), th('Reason')],
          ...uncomputable.map((u) => [
            u.kind === 'product' ? 'Product' : 'Equipment',
            u.id,
            u.reason,
          ]),
        ],
      },
      layout: 'lightHorizontalLines',
    },
  ];
}

/** The title of a production's limits PDF. */
export function macPdfTitle(pdf: Pick<MacPdfData, 'variant' | 'productionName'>): string {
  return pdf.variant === 'nitrosamine'
    ? `Nitrosamine limits · ${pdf.productionName}`
    : `MAC matrix · ${pdf.productionName}`;
}

/**
 * The MAC matrix of one production as pdfmake content for the controlled-document layout
 * (server/modules/reports/controlled-pdf.ts): the governing MACO of each pair of its products,
 * then how each one was reached (formula and inputs with units), so a reviewer can redo it by
 * hand. The nitrosamine variant is the same matrix under the Nitrosamine policy, where the
 * acceptable intake (ICH M7) takes the place of the PDE.
 */
export function macPdfContent(
  pdf: MacPdfData,
  digits: number = DEFAULT_SIGNIFICANT_DIGITS,
): unknown[] {
  const m = compileLimits(pdf.input);
  const products = pdf.input.products.map((p) => p.id);
  const maco = new Map<string, string>();
  const derivations: unknown[][] = [];
  runMatrix(m, (view) => {
    const previous = products[view.previous] ?? '';
    const next = products[view.next] ?? '';
    maco.set(`${previous}\u0000${next}`, limitText(view.maco, 'mg', digits));
    const explained = explainPair(m, previous, next);
    if (!explained) return;
    const governing = explained.governing ? explained.criteria[explained.governing] : null;
    derivations.push([
      `${previous} -> ${next}`,
      governing ? `${governing.quantity}\n${governing.formula}` : 'No criterion has its data',
      governing ? inputsText(governing, digits) : '',
      limitText(view.maco, 'mg', digits),
      `${explained.sal.formula}\nA = ${limitText(view.area, 'sqcm', digits)}\n= ${limitText(view.sal, 'mg/sqcm', digits)}`,
    ]);
  });
  return [
    {
      text: [
        `Facility: ${pdf.facilityName} · Production: ${pdf.productionName}\n`,
        `${pdf.input.policy.residueType} policy · ${products.length} products · ${derivations.length} pairs`,
      ],
      margin: [0, 0, 0, 8],
    },
    ...leftOutSection(pdf.uncomputable),
    ...pdeLineageContent(inputLineages([pdf.input])),
    ...(pdf.variant === 'nitrosamine'
      ? [{ text: 'Acceptable intakes', style: 'h2' }, intakeTable(pdf.input, digits)]
      : []),
    { text: 'Governing MACO per pair (empty: no shared equipment)', style: 'h2' },
    ...(derivations.length === 0
      ? [{ text: 'The products of this production share no equipment: no pairs.', italics: true }]
      : matrixTables(products, maco)),
    {
      text: 'Derivations',
      style: 'h2',
      pageBreak: derivations.length > 0 ? 'before' : undefined,
    },
    derivations.length === 0
      ? { text: 'No pairs to derive.', italics: true }
      : {
          table: {
            headerRows: 1,
            dontBreakRows: true,
            widths: [90, 150, '*', 60, 130],
            body: [
              [
                th('Pair'),
                th('Governing criterion'),
                th('Inputs'),
                th('MACO'),
                th('Surface limit'),
              ],
              ...derivations,
            ],
          },
          layout: 'lightHorizontalLines',
        },
  ];
}

/**
 * The limits of one production as they are now, through the controlled-document layout but not
 * stored: 'Preview', version 1 Being Built, under the DRAFT watermark. The controlled copy is the
 * production-limits report (reports/generate_report).
 */
export function renderMacPreviewPdf(
  pdf: MacPdfData & { settings: DateTimeSettings; generatedBy: string; generatedAt: Date },
): Promise<Buffer> {
  const data: MacPdfData = {
    input: pdf.input,
    uncomputable: pdf.uncomputable,
    variant: pdf.variant,
    facilityName: pdf.facilityName,
    productionName: pdf.productionName,
  };
  return renderPreviewPdf({
    facilityName: pdf.facilityName,
    title: macPdfTitle(pdf),
    settings: pdf.settings,
    generatedBy: pdf.generatedBy,
    generatedAt: pdf.generatedAt,
    data,
    parameters: { kind: 'production-limits', variant: pdf.variant },
    content: macPdfContent(data, pdf.settings.significantDigits),
    fontSize: 7,
  });
}
