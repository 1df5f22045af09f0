import { equipmentDef, productionsDef } from '#core/entities/defs/index.ts';
import { samplesDef } from '#core/entities/defs/samples.def.ts';
import { samplingLocationsDef } from '#core/entities/defs/sampling-locations.def.ts';
import { AppError } from '#core/errors/errors.ts';
import { compileLimits } from '#core/limits/compile.ts';
import { limitsReport } from '#core/limits/limit-reports.ts';
import { sampleLimits } from '#core/limits/sample-limits.ts';
import { toBase, type QuantityOf } from '#core/units/quantity.ts';
import type { Queryable } from '#server/db/db.ts';
import { allEntities, getEntity, type EntityRecord } from '#server/entities/entity-store.ts';
import { computableLimitsInput } from '../limits/computable-input.ts';
import { formatQuantity } from '#core/units/format-number.ts';
import { reportTable } from './controlled-pdf.ts';
import { sampleTypeLabel } from '#core/labels/enum-labels.ts';

/*
 * The sampling sheet of an item of equipment (GET {F}/equipment/{id}/pdf, 'sampling-sheet.pdf')
 * and its area calculation in a production (GET {F}/equipments/{id}/area-calculation-pdf/{id}):
 * the data read now, drawn on the controlled layout as a 'Preview' (they are not stored).
 */

type Area = QuantityOf<'area'>;
type Volume = QuantityOf<'volume'>;
const finite = (v: number) => (Number.isFinite(v) ? v : null);
/** Entered values (areas, volumes) keep their digits; computed limits take the facility's. */
const ENTERED_DIGITS = 10;
/** A stored quantity ({ value, unit }) as text, every digit of an entered value kept. */
const q = (v: unknown, digits = ENTERED_DIGITS) =>
  v && typeof v === 'object' && 'value' in v && 'unit' in v && typeof v.value === 'number'
    ? formatQuantity(v.value, String(v.unit), digits)
    : '—';
// Roboto, the font pdfmake embeds, has no arrows: pairs read 'A -> B'.
const pairText = (pair: [string, string] | null) => (pair ? `${pair[0]} -> ${pair[1]}` : '—');

export interface SamplingSheetData {
  equipment: { id: number; name: string; externalId: string | null; surfaceArea: unknown };
  /** The item's lowest surface limit over the pairs that share it, and the pair that sets it. */
  sal: { value: number | null; pair: [string, string] | null };
  recoveryPercent: number;
  locations: {
    name: string;
    sampleType: string;
    swabArea: unknown;
    riskLevel: string | null;
    samples: {
      name: string;
      sampleType: string;
      analyticalTest: string | null;
      batchNumber: string | null;
      /** The swab area or rinse volume the limit is for: the sample's, the location's or the facility's. */
      basis: string;
      /** mg/swab for a swab sample, mg/ml for a rinse sample; null without a limit. */
      limit: number | null;
    }[];
  }[];
}

export async function samplingSheetData(
  db: Queryable,
  facilityId: number,
  equipmentId: number,
): Promise<SamplingSheetData> {
  const item = await getEntity(db, equipmentDef, facilityId, equipmentId);
  const [{ input }, locations, samples] = await Promise.all([
    computableLimitsInput(db, facilityId),
    allEntities(db, samplingLocationsDef, facilityId),
    allEntities(db, samplesDef, facilityId),
  ]);
  const name = item.name as string;
  const lowest = limitsReport(compileLimits(input)).equipment.find((e) => e.id === name);
  const sal = lowest ? finite(lowest.sal.value) : null;
  const area = toBase(item.surfaceArea as Area, 'area');
  const { sampling, policy } = input;
  const limitFor = (sample: EntityRecord, location: EntityRecord) => {
    const swab = (sample.swabArea ?? location.swabArea ?? sampling.swabArea) as Area | undefined;
    const rinse = (sample.rinseVolume ?? sampling.rinseVolume) as Volume | undefined;
    const isSwab = sample.sampleType === 'swab';
    const basis = isSwab ? `swab area ${q(swab)}` : `rinse volume ${q(rinse)}`;
    if (sal === null) return { basis, limit: null };
    // The item sampled on its own: its share of the MACO is its SAL over its own area.
    const limits = sampleLimits(
      { maco: sal * area, sal, area },
      {
        ...(swab ? { swabArea: swab } : {}),
        ...(rinse ? { rinseVolume: rinse } : {}),
        ...(sampling.extractionVolume ? { extractionVolume: sampling.extractionVolume } : {}),
      },
      policy,
    );
    return { basis, limit: finite(isSwab ? limits.swab : limits.rinse) };
  };
  return {
    equipment: {
      id: item.id,
      name,
      externalId: (item.externalId as string | undefined) ?? null,
      surfaceArea: item.surfaceArea,
    },
    sal: { value: sal, pair: lowest?.sal.pair ?? null },
    recoveryPercent: policy.useGlobalRecoveryPercentage ? policy.globalRecoveryPercentage : 100,
    locations: locations
      .filter((l) => l.equipmentId === equipmentId)
      .map((location) => ({
        name: location.name as string,
        sampleType: location.sampleType as string,
        swabArea: location.swabArea ?? null,
        riskLevel: (location.riskLevel as string | undefined) ?? null,
        samples: samples
          .filter((s) => s.samplingLocationId === location.id)
          .map((sample) => ({
            name: sample.name as string,
            sampleType: sample.sampleType as string,
            analyticalTest: (sample.analyticalTest as string | undefined) ?? null,
            batchNumber: (sample.batchNumber as string | undefined) ?? null,
            ...limitFor(sample, location),
          })),
      })),
  };
}

export function samplingSheetContent(data: SamplingSheetData, digits?: number): unknown[] {
  const { equipment } = data;
  return [
    {
      text: [
        `Equipment: ${equipment.name}${equipment.externalId ? ` (${equipment.externalId})` : ''} · surface area ${q(equipment.surfaceArea)}\n`,
        data.sal.value === null
          ? 'The item is in no pair of the MAC matrix: it has no limit yet.'
          : `Lowest SAL: ${formatQuantity(data.sal.value, 'mg/sqcm', digits)}, set by ${pairText(data.sal.pair)} · recovery ${data.recoveryPercent} %`,
      ],
      margin: [0, 0, 0, 8],
    },
    ...(data.locations.length === 0
      ? [{ text: 'The item has no sampling locations.', italics: true }]
      : data.locations.flatMap((l) => [
          {
            text: `${l.name} · ${sampleTypeLabel(l.sampleType)} · swab area ${q(l.swabArea)} · risk ${l.riskLevel ?? '—'}`,
            style: 'h2',
          },
          l.samples.length === 0
            ? { text: 'No samples at this location.', italics: true }
            : reportTable(
                ['Sample', 'Type', 'Analytical test', 'Sample number', 'Limit for', 'Limit'],
                ['*', 40, 100, 70, 110, 80],
                l.samples.map((s) => [
                  s.name,
                  sampleTypeLabel(s.sampleType),
                  s.analyticalTest ?? '—',
                  s.batchNumber ?? '—',
                  s.basis,
                  s.limit === null
                    ? '—'
                    : formatQuantity(
                        s.limit,
                        s.sampleType === 'swab' ? 'mg/swab' : 'mg/ml',
                        digits,
                      ),
                ]),
              ),
        ])),
  ];
}

export interface AreaCalculationData {
  equipment: { id: number; name: string };
  production: { id: number; name: string };
  /** Each item of the production's train with its product-contact area in sqcm. */
  items: { name: string; surfaceArea: unknown; sqcm: number }[];
  totalSqcm: number;
  /** The item's swab areas over its sampling locations, sqcm. */
  sampledSqcm: number;
}

/**
 * The second id of equipments/{id}/area-calculation-pdf/{id} names the production: the area
 * a limit is spread over is that of the equipment a production's products share (its train).
 */
export async function areaCalculationData(
  db: Queryable,
  facilityId: number,
  equipmentId: number,
  productionId: number,
): Promise<AreaCalculationData> {
  const [item, production] = await Promise.all([
    getEntity(db, equipmentDef, facilityId, equipmentId),
    getEntity(db, productionsDef, facilityId, productionId),
  ]);
  const trainIds = (production.equipmentIds as number[] | undefined) ?? [];
  if (!trainIds.includes(equipmentId))
    throw new AppError(
      'NotFoundError',
      `${String(item.name)} is not used in ${String(production.name)}`,
    );
  const [equipment, locations] = await Promise.all([
    allEntities(db, equipmentDef, facilityId),
    allEntities(db, samplingLocationsDef, facilityId),
  ]);
  const items = equipment
    .filter((e) => trainIds.includes(e.id))
    .map((e) => ({
      name: e.name as string,
      surfaceArea: e.surfaceArea,
      sqcm: toBase(e.surfaceArea as Area, 'area'),
    }));
  const sampledSqcm = locations
    .filter((l) => l.equipmentId === equipmentId && l.swabArea)
    .reduce((sum, l) => sum + toBase(l.swabArea as Area, 'area'), 0);
  return {
    equipment: { id: item.id, name: item.name as string },
    production: { id: production.id, name: production.name as string },
    items,
    totalSqcm: items.reduce((sum, i) => sum + i.sqcm, 0),
    sampledSqcm,
  };
}

export function areaCalculationContent(data: AreaCalculationData, digits?: number): unknown[] {
  const share = (part: number, whole: number) =>
    whole > 0 ? formatQuantity((100 * part) / whole, '%', digits) : '—';
  // Areas are sums of entered areas: every digit an entry can hold, as the productions list.
  const sqcm = (v: number) => formatQuantity(v, 'sqcm', ENTERED_DIGITS);
  const own = data.items.find((i) => i.name === data.equipment.name)?.sqcm ?? 0;
  return [
    {
      text: [
        `Equipment: ${data.equipment.name} in production ${data.production.name}\n`,
        `Shared product-contact area of the production: ${sqcm(data.totalSqcm)} (the sum below) · `,
        `${data.equipment.name}: ${sqcm(own)}, ${share(own, data.totalSqcm)} of it\n`,
        `Swab areas of its sampling locations: ${sqcm(data.sampledSqcm)}, ${share(data.sampledSqcm, own)} of the item`,
      ],
      margin: [0, 0, 0, 8],
    },
    reportTable(
      ['Equipment', 'Surface area', 'Area (cm²)', 'Share of the production'],
      ['*', 100, 100, 120],
      [
        ...data.items.map((i) => [
          i.name === data.equipment.name ? { text: i.name, bold: true } : i.name,
          q(i.surfaceArea),
          sqcm(i.sqcm),
          share(i.sqcm, data.totalSqcm),
        ]),
        [{ text: 'Total', bold: true }, '', sqcm(data.totalSqcm), '100 %'],
      ],
    ),
  ];
}
