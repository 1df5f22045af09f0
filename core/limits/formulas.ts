/**
 * The formulas of the limits engine on plain numbers in base units (mass mg, area sqcm, volume
 * ml, per-day doses in mg/day). Callers convert quantities first (`core/units`); the matrix and
 * the derivations both call these, so an explained number is the number in the matrix.
 */

/**
 * Health-based MACO, EMA HBEL guideline (EMA/CHMP/CVMP/SWP/169430/2012) and ISPE Risk-MaPP:
 * MACO = HBEL × MBS / MDD. Ratio = MBS/MDD of the next product in one basis (mass, volume or units).
 */
export function macoHealth(hbelMgPerDay: number, batchToDoseRatio: number): number {
  return hbelMgPerDay * batchToDoseRatio;
}

/** Fourman & Mullen 1993 / APIC 4.2.1: MACO = TDD × MBS / (SF × MDD), SF a divisor. */
export function macoDose(
  therapeuticDoseMgPerDay: number,
  safetyFactor: number,
  batchToDoseRatio: number,
): number {
  return (therapeuticDoseMgPerDay / safetyFactor) * batchToDoseRatio;
}

/** APIC LD50 route (Layton et al. 1987): NOEL = LD50 × BW / EF, EF 2000 (0.0005 × LD50 per kg). */
export function noelFromLd50(ld50MgPerKg: number, bodyWeightKg: number, empiricalFactor: number) {
  return (ld50MgPerKg * bodyWeightKg) / empiricalFactor;
}

/** APIC: MACO = NOEL × MBS / (SF × MDD), the same algebra as ADI = NOEL / SF. */
export function macoLd50(noelMgPerDay: number, safetyFactor: number, batchToDoseRatio: number) {
  return (noelMgPerDay / safetyFactor) * batchToDoseRatio;
}

/**
 * General limit (Fourman & Mullen "10 ppm"; APIC MAXCONC): MACO = ARL [mg/kg] × MBS [kg].
 * Never divided by a daily dose (reference case D09).
 */
export function macoArl(arlPpm: number, batchMassKg: number): number {
  return arlPpm * batchMassKg;
}

/**
 * LeBlanc L1, the limit in the next product: HBEL [mg/day] / MDD [kg/day] in ppm (ICH Q3C
 * Option 1 algebra: ppm = 1000 × PDE [mg/day] / dose [g/day]).
 */
export function limitInNextProductPpm(dailyAmountMg: number, maxDailyDoseMg: number): number {
  return dailyAmountMg / (maxDailyDoseMg / 1_000_000);
}

/** ICH Q3C Appendix 3 / EMA HBEL guideline §4.1: PDE = NOAEL × W / (F1·F2·F3·F4·F5). */
export function pdeFromNoael(
  noaelMgPerKgDay: number,
  weightAdjustmentKg: number,
  factors: { f1: number; f2: number; f3: number; f4: number; f5: number },
): number {
  const composite = factors.f1 * factors.f2 * factors.f3 * factors.f4 * factors.f5;
  return (noaelMgPerKgDay * weightAdjustmentKg) / composite;
}

/** ISPE Risk-MaPP: ADE = NOAEL × BW / (UFc × MF × PK). */
export function adeFromNoael(
  noaelMgPerKgDay: number,
  bodyWeightKg: number,
  uncertainty: { ufc: number; mf: number; pk: number },
): number {
  return (noaelMgPerKgDay * bodyWeightKg) / (uncertainty.ufc * uncertainty.mf * uncertainty.pk);
}

/** EMA HBEL guideline: a PDE for another route, corrected by bioavailability. */
export function pdeForRoute(pde: number, bioavailabilityFrom: number, bioavailabilityTo: number) {
  return (pde * bioavailabilityFrom) / bioavailabilityTo;
}

/** EMA: the PDE scales with the body weight it assumes (paediatric next products). */
export function pdeForBodyWeight(pde: number, fromKg: number, toKg: number): number {
  return (pde * toKg) / fromKg;
}

/** LeBlanc L3 / ASTM E3418 MSSR: SAL = MACO / shared surface area. */
export function surfaceLimit(macoMg: number, areaSqcm: number): number {
  return macoMg / areaSqcm;
}

/**
 * LeBlanc L4a, what the laboratory may find on one swab. Recovery multiplies the limit (LeBlanc
 * "Using sampling recovery percentages"): dividing by it would loosen the limit (case G14).
 */
export function swabLimit(salMgPerSqcm: number, swabAreaSqcm: number, recovery: number): number {
  return salMgPerSqcm * swabAreaSqcm * recovery;
}

/** LeBlanc L4b (Jan 2009): rinse limit = L3 × area rinsed × recovery / rinse volume. */
export function rinseLimit(
  salMgPerSqcm: number,
  areaRinsedSqcm: number,
  recovery: number,
  rinseVolumeMl: number,
): number {
  return (salMgPerSqcm * areaRinsedSqcm * recovery) / rinseVolumeMl;
}

/** APIC target value for a rinse reaching the whole shared surface: MACO × recovery / volume. */
export function rinseLimitFromMaco(macoMg: number, recovery: number, rinseVolumeMl: number) {
  return (macoMg * recovery) / rinseVolumeMl;
}

/** Swab extract concentration limit: per-swab limit / extraction volume. */
export function extractLimit(swabLimitMg: number, extractionVolumeMl: number): number {
  return swabLimitMg / extractionVolumeMl;
}

/**
 * Equipment-wise apportionment (reference §2.2, case D20): MACO_i = MACO × A_i / ΣA, which keeps
 * the SAL the same on every item.
 */
export function apportion(macoMg: number, areasSqcm: readonly number[]): number[] {
  const total = areasSqcm.reduce((sum, a) => sum + a, 0);
  return areasSqcm.map((a) => (macoMg * a) / total);
}

/** LeBlanc: correct a result for recovery (R capped at 1, so a recovery above 100 % never helps). */
export function correctForRecovery(result: number, recovery: number): number {
  return result / Math.min(recovery, 1);
}

/** Back-calculated surface residue from a swab extract (reference case D19). */
export function surfaceResidue(
  extractConcentration: number,
  extractionVolume: number,
  dilutionFactor: number,
  swabArea: number,
  recovery: number,
): number {
  return (extractConcentration * extractionVolume * dilutionFactor) / (swabArea * recovery);
}

/** TOC limit = API limit × carbon mass fraction (reference §2.5). */
export function tocLimit(apiLimit: number, carbonFraction: number): number {
  return apiLimit * carbonFraction;
}

/** A TOC result back to API, attributing all carbon to the target (worst case). */
export function apiFromToc(tocResult: number, tocBlank: number, carbonFraction: number): number {
  return (tocResult - tocBlank) / carbonFraction;
}

/** Visible residue limit from a spotting study: amount seen / area spotted (reference G12). */
export function visibleResidueLimit(visibleAmount: number, area: number): number {
  return visibleAmount / area;
}

/**
 * Topicals (PharmTech topical-cleaning article, reference §1.1, case G08): the daily amounts
 * cancel, so MACO = strength of previous (w/w fraction) × MBS / SF.
 */
export function macoTopical(strengthFraction: number, safetyFactor: number, batchMassMg: number) {
  return (strengthFraction * batchMassMg) / safetyFactor;
}

/** ICH Q3C Option 1 assumes 10 g of product a day. */
export const ICH_Q3C_OPTION1_DAILY_DOSE_G = 10;

/**
 * Regulators publish rounded PDEs (ICH Q3C: THF 7.165 → 7.2 mg/day). The engine keeps full
 * precision; this is for showing, and for reproducing a published value that was rounded.
 */
export function roundToSignificant(value: number, digits: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  return Number(value.toPrecision(digits));
}

/** Rinse volume scaled from a validated volume-to-area ratio (reference §2.3, case G13). */
export function rinseVolumeForArea(validatedVolume: number, validatedArea: number, area: number) {
  return (validatedVolume * area) / validatedArea;
}
