import { z } from 'zod';
import { SAMPLE_RULE_NAMES } from '../limits/matrix.ts';
import { ZFacilityParams } from './auth.schemas.ts';
import { ZId } from './common.schemas.ts';
import { ZAsOfQuery, ZHistoryStartsAt } from './versions.schemas.ts';

const ZQuantity = <U extends string>(unit: U) =>
  z.object({ value: z.number(), unit: z.literal(unit) }).nullable();

/** The filters every MAC matrix download shares: the whole facility or one production. */
export const ZMacMatrixExportQuery = z.object({
  productionId: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .describe('Only the products and equipment of this production'),
  ...ZAsOfQuery.shape,
});
export type TMacMatrixExportQuery = z.infer<typeof ZMacMatrixExportQuery>;

export const MAC_PAIR_SORTS = ['previous', 'next', 'maco', '-maco', 'sal', '-sal'] as const;
export type MacPairSort = (typeof MAC_PAIR_SORTS)[number];

/** One page of a huge matrix, so the client never downloads the whole of it. */
export const ZMacPairsQuery = ZMacMatrixExportQuery.extend({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageLimit: z.coerce.number().int().min(1).max(500).default(50),
  previous: z.string().trim().min(1).max(200).optional().describe('Previous product name'),
  next: z.string().trim().min(1).max(200).optional().describe('Next product name'),
  equipment: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('Equipment name: pairs that share this item'),
  failingOnly: z
    .enum(['true', 'false'])
    .optional()
    .describe('Only pairs with no limit or with a flag raised'),
  sort: z
    .enum(MAC_PAIR_SORTS)
    .optional()
    .describe('Matrix order when absent; "-" sorts descending; pairs without a value come last'),
});
export type TMacPairsQuery = z.infer<typeof ZMacPairsQuery>;

/**
 * Which rule set a pair's swab or rinse limit. The policy's fixed sample limit and per-sample
 * cap are ceilings (useFixedSampleLimits, useSampleLimit): each governs only where lower than
 * the calculated limit, never raising it.
 */
export const ZSampleLimitBasis = z
  .enum(SAMPLE_RULE_NAMES)
  .describe(
    'calculated; perSampleCap: the policy’s per-sample cap is lower; fixed: the policy’s fixed sample limit is lower and governs',
  );

export const ZMacPair = z.object({
  previous: z.string(),
  next: z.string(),
  sharedEquipment: z.array(z.string()),
  area: ZQuantity('sqcm'),
  criteria: z.record(z.string(), ZQuantity('mg')),
  governing: z.string().nullable(),
  governingActive: z.string().nullable(),
  maco: ZQuantity('mg'),
  sal: ZQuantity('mg/sqcm'),
  salCapped: z.boolean(),
  swabLimit: ZQuantity('mg/swab').optional(),
  rinseLimit: ZQuantity('mg/ml').optional(),
  swabLimitBasis: ZSampleLimitBasis.optional(),
  rinseLimitBasis: ZSampleLimitBasis.optional(),
  flags: z.array(z.string()),
});
export type TMacPair = z.infer<typeof ZMacPair>;

/**
 * A product or equipment item whose stored data the limits engine cannot compute with (left out
 * of the matrix, the rest computed), and why.
 */
export const ZUncomputable = z.object({
  kind: z.enum(['product', 'equipment']),
  id: z.string().describe('Its name'),
  reason: z.string(),
});
export type TUncomputable = z.infer<typeof ZUncomputable>;

export const ZMacPairsPage = z.object({
  data: z.array(ZMacPair),
  uncomputable: z.array(ZUncomputable).optional(),
  total: z.number().int(),
  pageNumber: z.number().int(),
  pageLimit: z.number().int(),
  historyStartsAt: ZHistoryStartsAt,
});
export type TMacPairsPage = z.infer<typeof ZMacPairsPage>;

export const ZMacProductionParams = ZFacilityParams.extend({
  id: ZId,
});

export const ZMacGridQuery = ZMacMatrixExportQuery;
export type TMacGridQuery = z.infer<typeof ZMacGridQuery>;

const ZIndices = z.array(z.number().int());

/**
 * The whole MAC matrix in columns, for a product × product grid: every name once, then one
 * array per field with one entry per pair, units once. The pairs of previous product p are
 * `rowStart[p]` up to `rowStart[p + 1]`, in the matrix order of GET mac-matrix/pairs (next
 * products ascending); every other array is indexed by pair.
 */
export const ZMacGrid = z.object({
  products: z.array(z.string()).describe('Product names; `rowStart` and `next` index this list'),
  actives: z.array(z.string()).describe('Active names; `governingActive` indexes this list'),
  criteria: z.array(z.string()).describe('Criterion keys; `governing` indexes this list'),
  flagTexts: z.array(z.string()).describe('Flag texts; bit i of `flags` stands for the i-th'),
  units: z.object({ maco: z.literal('mg'), sal: z.literal('mg/sqcm') }),
  rowStart: ZIndices.describe('products.length + 1 offsets into the pair arrays'),
  next: ZIndices,
  maco: z.array(z.number().nullable()).describe('Governing MACO; null where no criterion applies'),
  sal: z.array(z.number().nullable()),
  governing: ZIndices.describe('-1 where no criterion applies'),
  governingActive: ZIndices.describe('-1 where none'),
  salCapped: z.array(z.union([z.literal(0), z.literal(1)])),
  flags: ZIndices,
  uncomputable: z.array(ZUncomputable),
  historyStartsAt: ZHistoryStartsAt,
});
export type TMacGrid = z.infer<typeof ZMacGrid>;

/** Element types of a binary column: little-endian, as every browser and x86/ARM server is. */
export const COLUMN_TYPES = ['f64', 'i8', 'u8', 'i16', 'u16', 'i32', 'u32'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

/** One value per pair, as the bytes of a typed array in base64 (a double's exact bits). */
export const ZColumn = z.object({ type: z.enum(COLUMN_TYPES), base64: z.string() });
export type TColumn = z.infer<typeof ZColumn>;
const ZNumberColumn = ZColumn.nullable().describe('null: the value is null for every pair');

/** The units of the columns answer's numbers: the contract's output units. */
export const MAC_COLUMN_UNITS = {
  area: 'sqcm',
  criteria: 'mg',
  maco: 'mg',
  sal: 'mg/sqcm',
  swabLimit: 'mg/swab',
  rinseLimit: 'mg/ml',
} as const;

/**
 * GET {F}/mac-matrix?format=columns: the whole matrix of the limits contract (every field of
 * every pair, then the products' and equipment's lowest limits) in columns. Names are listed
 * once and pairs carry indices into them; numbers travel as the bytes of a Float64Array, so
 * every double is the engine's own, bit for bit (NaN where the document has null), at 8 bytes
 * instead of the 18 characters its shortest decimal form takes. About 90 bytes a pair before
 * compression instead of 540.
 */
export const ZMacColumns = z.object({
  format: z.literal('columns'),
  count: z.number().int().describe('Number of pairs; every column has one value per pair'),
  names: z.object({
    products: z.array(z.string()).describe('`rowStart` and `next` index this list'),
    equipment: z.array(z.string()).describe('`sharedSets` index this list'),
    actives: z.array(z.string()).describe('`governingActive` indexes this list'),
  }),
  criteria: z.array(z.string()).describe('The pairs’ criterion keys; `governing` indexes this'),
  rowStart: ZIndices.describe(
    'products.length + 1 offsets: the pairs of previous product p are rowStart[p] up to rowStart[p + 1]',
  ),
  sharedSets: z
    .object({
      start: ZColumn.describe('Offsets: set s is items[start[s]] up to items[start[s + 1]]'),
      items: ZColumn.describe('Indices into `names.equipment`'),
      area: ZColumn.describe('Each set’s area, sqcm (the pair’s `area`)'),
    })
    .describe(
      'Each distinct list of shared equipment of a pair with its area; `shared` indexes this',
    ),
  columns: z.object({
    next: ZColumn,
    shared: ZColumn,
    governing: ZColumn.describe('Index into `criteria`, -1 where every criterion is null'),
    governingActive: ZColumn.describe('Index into `names.actives`, -1 where none'),
    maco: ZNumberColumn,
    sal: ZNumberColumn,
    salCapped: ZColumn.describe('1 where the residue limit capped the surface limit'),
    criteria: z.array(ZNumberColumn).describe('One per key of `criteria`, in its order'),
    swabLimit: ZNumberColumn.optional().describe('Absent without a swab area'),
    rinseLimit: ZNumberColumn.optional().describe('Absent without a rinse volume'),
  }),
  units: z.object({
    area: z.literal(MAC_COLUMN_UNITS.area),
    criteria: z.literal(MAC_COLUMN_UNITS.criteria),
    maco: z.literal(MAC_COLUMN_UNITS.maco),
    sal: z.literal(MAC_COLUMN_UNITS.sal),
    swabLimit: z.literal(MAC_COLUMN_UNITS.swabLimit),
    rinseLimit: z.literal(MAC_COLUMN_UNITS.rinseLimit),
  }),
  products: z.array(z.record(z.string(), z.unknown())).describe('As in the contract document'),
  equipment: z.array(z.record(z.string(), z.unknown())).describe('As in the contract document'),
  uncomputable: z.array(ZUncomputable),
  historyStartsAt: ZHistoryStartsAt,
});
export type TMacColumns = z.infer<typeof ZMacColumns>;
