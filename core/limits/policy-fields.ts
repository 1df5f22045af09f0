/**
 * What each cleaning limit policy field of spec §3 does to the numbers, in one place: the OpenAPI
 * description of the policy schema and the policy screen both read these texts, so a field is
 * never silently ignored. `noEffect` says when a field changes nothing in a facility as the
 * platform records it today.
 */
export interface PolicyFieldMeaning {
  meaning: string;
  noEffect?: string;
}

export const POLICY_FIELD_MEANINGS = {
  useToxicity: {
    meaning:
      'Health-based criterion: MACO = HBEL × MBS / MDD with the active’s PDE/ADE (EMA HBEL guideline). An active recorded with only an acceptable intake is a nitrosamine: its AI-based limit always applies.',
  },
  useDosage: { meaning: 'Dose criterion: MACO = minimum therapeutic dose × MBS / (SF × MDD).' },
  useLd50: {
    meaning: 'LD50 criterion: NOEL = LD50 × body weight / empirical factor, then as dose.',
  },
  useARL: { meaning: 'General limit: MACO = ARL (ppm) × batch mass of the next product.' },
  useResidueLimit: {
    meaning: 'The surface limit (SAL) is capped at the residue limit where that is lower.',
  },
  useFirstAvailableCriteria: {
    meaning: 'MACO is the first criterion with data (health, dose, LD50, general), not the lowest.',
  },
  useProductLimit: {
    meaning: 'A limit recorded on the previous product becomes one more criterion (mg).',
    noEffect:
      'No effect in this facility: products have no recorded limit, so the criterion is always empty.',
  },
  ignoreCombo: {
    meaning:
      'For a combination product, each active’s own limit is worked out beside the combination’s (the most restrictive active governs the pair either way).',
    noEffect:
      'No effect on any number: the matrix, exports and reports always use the most restrictive active of a combination.',
  },
  useGlobalRecoveryPercentage: {
    meaning:
      'Swab and rinse limits are multiplied by the global recovery; where a sampling type has its own recovery, the lower of the two is used.',
  },
  useSAR: {
    meaning:
      'On: rinse limit = SAL × area × recovery / rinse volume (LeBlanc). Off: rinse limit = MACO × recovery / rinse volume (APIC). The two differ only where the residue limit caps the SAL.',
  },
  useSampleLimit: {
    meaning:
      'Swab and rinse limits are capped at the swab and rinse sample limits (a concentration in the swab extract or the rinse, in the sample-limit unit).',
  },
  swabSampleLimit: {
    meaning: 'With useSampleLimit: the most a swab extract may contain (sample-limit unit).',
    noEffect:
      'No effect unless the swab sampling type records an extraction volume: without one, a concentration in the extract cannot become a limit per swab.',
  },
  rinseSampleLimit: {
    meaning: 'With useSampleLimit: the most the rinse may contain (sample-limit unit).',
  },
  useFixedSampleLimits: {
    meaning:
      'The fixed swab and rinse limits are ceilings, never a loosening: each applies to a pair only where it is lower than the pair’s calculated limit, so switching this on can only lower limits. Each pair’s swab and rinse limit says whether the fixed limit governs.',
  },
  salMassUnit: {
    meaning: 'The mass unit the surface limit is shown in (mg or µg per sqcm).',
    noEffect:
      'Display only, and not applied: the matrix, its exports, the reports and the limits API show MACO in mg and surface limits in mg/sqcm, the output units of the limits contract, so that every screen and file shows the same number for a pair.',
  },
  'sampleLimits.unit': {
    meaning:
      'The unit of swabSampleLimit and rinseSampleLimit (ppm, mg/ml or µg/ml): a concentration in the swab extract or in the rinse.',
  },
  'sampleLimits.usePerSampleLimit': {
    meaning: 'Whether a sample limit is stated per sample.',
    noEffect: 'No effect on any number: useSampleLimit alone turns the sample-limit caps on.',
  },
  sampleRecordingLimits: {
    meaning: 'How sample results are recorded against their limits (per sample, unit).',
    noEffect: 'No effect on any limit: it concerns recording sample results, not computing limits.',
  },
  'reporting.showSar': {
    meaning: 'Whether reports show the surface limit beside this sample’s limit.',
    noEffect: 'No effect on any number: the limits views and exports always show the SAL.',
  },
  'reporting.showPerSampleResidue': {
    meaning: 'Whether reports show the residue per sample (mg per swab).',
    noEffect: 'No effect on any number: the limits views and exports always show swab limits.',
  },
  'reporting.showConcentration': {
    meaning: 'Whether reports show the limit as a concentration (rinse).',
    noEffect: 'No effect on any number: the limits views and exports always show rinse limits.',
  },
  'reporting.perSampleLimitUnit': {
    meaning:
      'The unit fixedSwabLimit is entered in (mg or µg per swab). Swab limits are shown in mg/swab.',
  },
  'reporting.concentrationLimitUnit': {
    meaning:
      'The unit fixedRinseLimit is entered in (ppm, mg/ml or µg/ml). Rinse limits are shown in mg/ml.',
  },
  arl: {
    meaning:
      'The general limit (L5, ppm): with useARL, MACO = ARL × batch mass of the next product. Under the Intermediate policy activesArl takes its place.',
  },
  residueLimit: {
    meaning:
      'The residue limit (L3: mg or µg per sqcm, sqin or sqm): with useResidueLimit, the cap on the surface limit.',
  },
  globalRecoveryPercentage: {
    meaning:
      'With useGlobalRecoveryPercentage: the recovery (above 0, at most 100 %) swab and rinse limits are multiplied by.',
  },
  intermediateArl: {
    meaning:
      'Intermediate policy only: the general limit (ppm) of a residue that is an intermediate of an API process.',
  },
  activesArl: {
    meaning: 'Intermediate policy only: the general limit (ppm) of actives, in place of arl.',
  },
  fixedSwabLimit: {
    meaning:
      'With useFixedSampleLimits: the fixed swab limit, in the swab unit of reporting.perSampleLimitUnit; a ceiling on the calculated limit.',
  },
  fixedRinseLimit: {
    meaning:
      'With useFixedSampleLimits: the fixed rinse limit, in the rinse unit of reporting.concentrationLimitUnit; a ceiling on the calculated limit.',
  },
  safetyFactor: {
    meaning:
      'The divisor of the dose and LD50 criteria: MACO = dose × MBS / (SF × MDD). Fixed at 1000 under the Intermediate policy.',
  },
  modificationFactor: {
    meaning:
      'An extra divisor (at least 1) on the health-based criterion only: MACO = HBEL × MBS / (MF × MDD).',
  },
  bodyWeight: {
    meaning:
      'LD50 criterion and cleaning agents: the body weight BW in NOEL = LD50 × BW / empirical factor.',
  },
  ld50EmpiricalFactor: {
    meaning:
      'LD50 criterion and cleaning agents: the empirical factor EF in NOEL = LD50 × BW / EF.',
  },
  areaBasis: {
    meaning:
      'Shared: the surface limit is spread over the equipment both products use. Previous train: over the whole train of the previous product (more conservative).',
  },
} as const satisfies Record<string, PolicyFieldMeaning>;

export type PolicyFieldName = keyof typeof POLICY_FIELD_MEANINGS;

/** The meaning and, where it has none here, why the field changes nothing: for descriptions. */
export function policyFieldText(field: PolicyFieldName): string {
  const f: PolicyFieldMeaning = POLICY_FIELD_MEANINGS[field];
  return f.noEffect ? `${f.meaning} ${f.noEffect}` : f.meaning;
}

// Names that group fields without a meaning of their own.
const GROUPING = new Set(['limitRepresentation', 'productAndEquipmentLimits', 'swab', 'rinse']);

/**
 * The most specific meaning of a field by its path in the policy: `reporting.showSar` for
 * limitRepresentation.reporting.swab.showSar, `arl` for arl.value, `sampleRecordingLimits` for
 * any of its fields. For the policy screen, which shows one per form field.
 */
export function fieldMeaning(path: readonly string[]): PolicyFieldMeaning | undefined {
  const parts = path.filter((p) => !GROUPING.has(p));
  for (let n = parts.length; n > 0; n--) {
    const key = parts.slice(0, n).join('.');
    if (Object.hasOwn(POLICY_FIELD_MEANINGS, key)) {
      return POLICY_FIELD_MEANINGS[key as PolicyFieldName];
    }
  }
  return undefined;
}
