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
      'No effect in this facility: sampling types record no extraction volume, so a concentration in the extract cannot become a limit per swab.',
  },
  rinseSampleLimit: {
    meaning: 'With useSampleLimit: the most the rinse may contain (sample-limit unit).',
  },
  useFixedSampleLimits: {
    meaning:
      'The fixed swab and rinse limits are ceilings: each is used only where it is lower than the calculated limit, and the derivation says which governs.',
  },
  salMassUnit: {
    meaning: 'The mass unit the surface limit is shown in (mg or µg per sqcm).',
    noEffect:
      'Display only, and not yet applied: the matrix, its exports and the reports show surface limits in mg/sqcm.',
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
