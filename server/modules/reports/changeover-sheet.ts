import type { TChangeover, TChangeoverQuery } from '#core/schemas/changeover.schemas.ts';
import { formatNumber, formatQuantity } from '#core/units/format-number.ts';
import type { Queryable } from '#server/db/db.ts';
import { changeoverDecision } from '../equipment-status/changeover.ts';
import { reportTable } from './controlled-pdf.ts';

/*
 * The sampling sheet of a changeover (issue 31): what the changeover decision answers (limits,
 * procedure, validated or why verification is needed, the samples with their limits) for the
 * line, with the locations numbered and marked on the pictures of their equipment where they
 * have been placed. Drawn on request on the controlled layout as a 'Preview' (not stored).
 */

export interface ChangeoverSheetData {
  from: string;
  to: string;
  production: string;
  procedure: string | null;
  decision: TChangeover;
  /** The plan's rows in order, numbered from 1 as the pictures mark them. */
  rows: {
    number: number;
    location: string;
    equipment: string;
    method: string | null;
    riskLevel: string | null;
  }[];
  pictures: {
    equipment: string;
    name: string | null;
    imageData: string;
    /** Width over height, from the picture's own header (1 when unknown). */
    aspect: number;
    marks: { number: number; x: number; y: number; riskLevel: string | null }[];
  }[];
}

/** Width over height of a PNG or JPEG, read from its header; 1 when it cannot be read. */
export function aspectOf(base64: string): number {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > 24 && bytes.readUInt32BE(0) === 0x89504e47) {
    const width = bytes.readUInt32BE(16);
    const height = bytes.readUInt32BE(20);
    return width > 0 && height > 0 ? width / height : 1;
  }
  // JPEG: the first start-of-frame segment (SOF0–SOF15 but DHT, JPG, DAC) holds the size.
  let at = 2;
  while (bytes[0] === 0xff && bytes[1] === 0xd8 && at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) break;
    const marker = bytes[at + 1]!;
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      const height = bytes.readUInt16BE(at + 5);
      const width = bytes.readUInt16BE(at + 7);
      return width > 0 && height > 0 ? width / height : 1;
    }
    at += 2 + length;
  }
  return 1;
}

const nameMap = async (q: Queryable, table: string, facilityId: number, ids: number[]) =>
  new Map(
    (
      await q.query<{ id: number; name: string }>(
        `select id, name from ${table} where facility_id = $1 and id = any($2::int[])`,
        [facilityId, ids],
      )
    ).map((r) => [r.id, r.name]),
  );

export async function changeoverSheetData(
  q: Queryable,
  facilityId: number,
  query: TChangeoverQuery,
  now: Date,
): Promise<ChangeoverSheetData> {
  const decision = await changeoverDecision(q, facilityId, query, now);
  const locationIds = decision.samplingPlan.map((s) => s.samplingLocationId);
  const [products, productions, procedures, methods, locations] = await Promise.all([
    nameMap(q, 'products', facilityId, [query.from, query.to]),
    nameMap(q, 'productions', facilityId, [query.production]),
    nameMap(q, 'cleaning_procedures', facilityId, [decision.cleaningProcedureId ?? 0]),
    nameMap(
      q,
      'analytical_methods',
      facilityId,
      decision.samplingPlan.map((s) => s.analyticalMethodId ?? 0),
    ),
    q.query<{
      id: number;
      name: string;
      equipment_id: number;
      equipment: string;
      risk_level: string | null;
      image_id: number | null;
      x: number | null;
      y: number | null;
    }>(
      `select l.id, l.name, l.equipment_id, e.name as equipment, l.risk_level, l.image_id, l.x, l.y
         from sampling_locations l join equipment e on e.id = l.equipment_id
        where l.facility_id = $1 and l.id = any($2::int[])`,
      [facilityId, locationIds],
    ),
  ]);
  const byId = new Map(locations.map((l) => [l.id, l]));
  const rows = decision.samplingPlan.map((s, i) => {
    const l = byId.get(s.samplingLocationId);
    return {
      number: i + 1,
      location: l?.name ?? `Location ${s.samplingLocationId}`,
      equipment: l?.equipment ?? '—',
      method: s.analyticalMethodId === null ? null : (methods.get(s.analyticalMethodId) ?? null),
      riskLevel: l?.risk_level ?? null,
    };
  });
  const imageIds = [
    ...new Set(locations.flatMap((l) => (l.image_id === null ? [] : [l.image_id]))),
  ];
  const images = await q.query<{
    id: number;
    name: string | null;
    mime_type: string;
    image_data: string;
    equipment: string;
  }>(
    `select i.id, i.name, i.mime_type, i.image_data, e.name as equipment
       from equipment_images i join equipment e on e.id = i.equipment_id
      where i.facility_id = $1 and i.id = any($2::int[]) and i.deleted_at is null
      order by e.name, i.id`,
    [facilityId, imageIds],
  );
  const pictures = images.map((image) => ({
    equipment: image.equipment,
    name: image.name,
    imageData: `data:${image.mime_type};base64,${image.image_data}`,
    aspect: aspectOf(image.image_data),
    marks: decision.samplingPlan.flatMap((s, i) => {
      const l = byId.get(s.samplingLocationId);
      return l && l.image_id === image.id && l.x !== null && l.y !== null
        ? [{ number: i + 1, x: l.x, y: l.y, riskLevel: l.risk_level }]
        : [];
    }),
  }));
  return {
    from: products.get(query.from) ?? String(query.from),
    to: products.get(query.to) ?? String(query.to),
    production: productions.get(query.production) ?? String(query.production),
    procedure:
      decision.cleaningProcedureId === null
        ? null
        : (procedures.get(decision.cleaningProcedureId) ?? null),
    decision,
    rows,
    pictures,
  };
}

/** The risk level's colour, as the equipment page draws it. */
const RISK_COLOURS: Record<string, string> = { Low: '#389e0d', Medium: '#d48806', High: '#cf1322' };
const markColour = (riskLevel: string | null) => RISK_COLOURS[riskLevel ?? ''] ?? '#1677ff';

/** Pictures are drawn at most this wide and high (points). */
const PICTURE_BOX = { width: 420, height: 300 };

function picture(p: ChangeoverSheetData['pictures'][number]): unknown {
  const width = Math.min(PICTURE_BOX.width, PICTURE_BOX.height * p.aspect);
  const height = width / p.aspect;
  // The marks are drawn over the picture: placed back by its height, out of the flow.
  return {
    unbreakable: true,
    stack: [
      { text: `${p.equipment}${p.name ? `: ${p.name}` : ''}`, style: 'h2' },
      { image: p.imageData, width, height },
      ...p.marks.flatMap((m) => [
        {
          canvas: [
            {
              type: 'ellipse',
              x: m.x * width,
              y: m.y * height,
              r1: 7,
              r2: 7,
              lineWidth: 2,
              lineColor: markColour(m.riskLevel),
            },
          ],
          relativePosition: { x: 0, y: -height },
        },
        {
          text: String(m.number),
          bold: true,
          color: markColour(m.riskLevel),
          relativePosition: { x: m.x * width + 9, y: m.y * height - height - 6 },
        },
      ]),
    ],
    margin: [0, 8, 0, 8],
  };
}

export function changeoverSheetContent(data: ChangeoverSheetData, digits?: number): unknown[] {
  const { decision } = data;
  const limit = (v: { value: number; unit: string } | null) =>
    v ? formatQuantity(v.value, v.unit, digits) : '—';
  const { limits } = decision;
  return [
    {
      text: [
        // Roboto, the font pdfmake embeds, has no arrows: pairs read 'A -> B'.
        `Changeover: ${data.from} -> ${data.to} on ${data.production}\n`,
        `Cleaning procedure: ${data.procedure ?? 'none named by a protocol'}\n`,
        `Limits: MACO ${limit(limits.maco)} · SAL ${limit(limits.sal)} · swab ${limit(limits.swab)} · rinse ${limit(limits.rinse)} · governed by ${limits.governing ?? '—'}${limits.governingActive ? ` (${limits.governingActive})` : ''}`,
      ],
      margin: [0, 0, 0, 8],
    },
    decision.validated
      ? { text: 'Covered by a Validated study: routine sampling.', bold: true }
      : { text: 'Verification required:', bold: true },
    ...(decision.reasons.length > 0 ? [{ ul: decision.reasons, margin: [0, 2, 0, 8] }] : []),
    data.rows.length === 0
      ? { text: 'No sampling locations on this production’s equipment.', italics: true }
      : reportTable(
          [
            'No.',
            'Location',
            'Equipment',
            'Sample',
            'Analytical method',
            'Limit',
            'Result',
            'Sampled by',
          ],
          [24, '*', 90, 40, 90, 80, 70, 80],
          data.rows.map((r, i) => {
            const sample = decision.samplingPlan[i]!;
            return [
              String(r.number),
              r.location,
              r.equipment,
              sample.sampleType,
              r.method ?? '—',
              // The limit is for what is measured: it carries the recovery the run divides by.
              sample.limit && sample.recovery !== null && sample.recovery < 1
                ? `${limit(sample.limit)} (recovery ${formatNumber(sample.recovery * 100, digits)} %)`
                : limit(sample.limit),
              '',
              '',
            ];
          }),
        ),
    ...data.pictures.map(picture),
  ];
}
