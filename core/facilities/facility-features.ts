/**
 * Which facility has which feature: the one table of tier and product-type gating (spec §1, §6:
 * "facility tier and product type api gate features"). The server refuses the calls under a
 * feature's paths (server/http/facility-gate.ts) and the client hides its navigation entries and
 * fields from this same table; README.md shows it.
 */

export const TIERS = ['full', 'lite'] as const;
export type Tier = (typeof TIERS)[number];
export const PRODUCT_TYPES = ['product', 'intermediate', 'api'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export interface FacilityFeature {
  /** The name in messages: "Studies are not available on the lite tier". */
  label: string;
  tiers: readonly Tier[];
  productTypes: readonly ProductType[];
  /** Facility-scoped call paths (after /facilities/{facility}/) that belong to the feature. */
  paths: readonly string[];
  /** Client routes of the feature's screens. */
  screens: readonly string[];
}

const EVERY_TIER = TIERS;
const EVERY_TYPE = PRODUCT_TYPES;

export const FACILITY_FEATURES = {
  masterData: {
    label: 'Master data',
    tiers: EVERY_TIER,
    productTypes: EVERY_TYPE,
    paths: [],
    screens: ['/master-data'],
  },
  limits: {
    label: 'Limits',
    tiers: EVERY_TIER,
    productTypes: EVERY_TYPE,
    paths: [],
    screens: ['/limits/mac-matrix', '/limits/reports'],
  },
  reports: {
    label: 'Reports',
    tiers: EVERY_TIER,
    productTypes: EVERY_TYPE,
    paths: [],
    screens: ['/reports'],
  },
  studies: {
    label: 'Studies',
    tiers: ['full'],
    productTypes: EVERY_TYPE,
    paths: ['studies'],
    screens: ['/studies'],
  },
  runs: {
    label: 'Verification runs',
    tiers: ['full'],
    productTypes: EVERY_TYPE,
    paths: ['runs', 'results', 'deviations', 'microbial-results'],
    screens: [],
  },
  statistics: {
    label: 'Ongoing verification statistics',
    tiers: ['full'],
    productTypes: EVERY_TYPE,
    paths: ['verification'],
    screens: ['/verification'],
  },
  protocols: {
    label: 'Protocols',
    tiers: ['full'],
    productTypes: EVERY_TYPE,
    paths: ['protocols', 'archived/protocols'],
    screens: ['/protocols'],
  },
  changeControl: {
    label: 'Change control',
    tiers: ['full'],
    productTypes: EVERY_TYPE,
    paths: ['change-assessments', 'moc', 'archived/moc'],
    screens: ['/change-control'],
  },
  cleaningAssessments: {
    label: 'Cleaning assessments',
    tiers: ['full'],
    productTypes: EVERY_TYPE,
    paths: ['cleaning-assessments', 'prior_assessment', 'qualification-task', 'risk-goal'],
    screens: ['/cleaning-assessments'],
  },
  customReports: {
    label: 'Custom reports',
    tiers: ['full'],
    productTypes: EVERY_TYPE,
    paths: ['report-info', 'report-config', 'report-data', ':id/report-data'],
    screens: ['/reports/custom'],
  },
  intermediates: {
    label: 'Intermediates',
    tiers: EVERY_TIER,
    productTypes: ['api', 'intermediate'],
    paths: ['intermediates', 'archived/intermediates'],
    screens: [],
  },
  // An API plant's processes (issue 32): steps, their equipment and substances. A finished-dose
  // plant maps its products to equipment through productions instead.
  apiProcesses: {
    label: 'API productions',
    tiers: EVERY_TIER,
    productTypes: ['api'],
    paths: [
      'api-productions',
      'archived/api-productions',
      'api-equipment',
      'archived/api-equipment',
      'api-products',
      'archived/api-products',
    ],
    screens: [],
  },
  dosageFormFields: {
    label: 'Dosage-form fields',
    tiers: EVERY_TIER,
    productTypes: ['product', 'intermediate'],
    paths: [],
    screens: [],
  },
} as const satisfies Record<string, FacilityFeature>;

export type FacilityFeatureKey = keyof typeof FACILITY_FEATURES;

/** Product fields that describe a dosage form (core/entities/defs/products.def.ts). */
export const DOSAGE_FORM_FIELDS = ['dosageForm', 'strength', 'unitWeight'] as const;

export interface FacilityKind {
  tier: Tier;
  productType: ProductType;
}

export function hasFeature(facility: FacilityKind, key: FacilityFeatureKey): boolean {
  const feature: FacilityFeature = FACILITY_FEATURES[key];
  return (
    feature.tiers.includes(facility.tier) && feature.productTypes.includes(facility.productType)
  );
}

function startsWithSegments(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** The feature a facility-scoped call path (after /facilities/{facility}/) belongs to. */
export function featureOfPath(path: string): FacilityFeatureKey | undefined {
  const keys = Object.keys(FACILITY_FEATURES) as FacilityFeatureKey[];
  return keys.find((key) =>
    FACILITY_FEATURES[key].paths.some((prefix) => startsWithSegments(path, prefix)),
  );
}

/** The feature a client route belongs to. */
export function featureOfScreen(route: string): FacilityFeatureKey | undefined {
  const keys = Object.keys(FACILITY_FEATURES) as FacilityFeatureKey[];
  return keys.find((key) =>
    FACILITY_FEATURES[key].screens.some((prefix) => startsWithSegments(route, prefix)),
  );
}

/** Why a facility lacks a feature, naming the tier or the product type that lacks it. */
export function unavailableMessage(facility: FacilityKind, key: FacilityFeatureKey): string {
  const feature: FacilityFeature = FACILITY_FEATURES[key];
  const verb = /s$/.test(feature.label) ? 'are' : 'is';
  return feature.tiers.includes(facility.tier)
    ? `${feature.label} ${verb} not available for ${facility.productType} facilities`
    : `${feature.label} ${verb} not available on the ${facility.tier} tier`;
}

/** Can a facility of this kind open this client route? */
export function canOpenScreen(facility: FacilityKind | undefined, route: string): boolean {
  const key = featureOfScreen(route);
  return key === undefined || facility === undefined || hasFeature(facility, key);
}

/** Fields a facility's forms leave out: a product's dosage form where it makes none (api). */
export function isFieldShown(
  facility: FacilityKind | undefined,
  entityKey: string,
  fieldName: string,
): boolean {
  if (facility === undefined || entityKey !== 'products') return true;
  return (
    hasFeature(facility, 'dosageFormFields') ||
    !(DOSAGE_FORM_FIELDS as readonly string[]).includes(fieldName)
  );
}

/** Master-data entities a facility lacks (intermediates outside api and intermediate plants). */
export function isEntityShown(facility: FacilityKind | undefined, entityPath: string): boolean {
  const key = featureOfPath(entityPath);
  return facility === undefined || key === undefined || hasFeature(facility, key);
}
