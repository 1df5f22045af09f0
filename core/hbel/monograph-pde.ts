import type { Derivation, DerivationInput } from '../limits/derivation.ts';
import { factorInput, input, result, step } from '../limits/derivation.ts';
import { UnitKindError, valueIn } from '../units/quantity.ts';

/**
 * The PDE of one HBEL monograph, as the EMA guideline on setting health-based exposure limits
 * (EMA/CHMP/CVMP/SWP/169430/2012, §4.1, taken from ICH Q3C Appendix 3) writes it:
 *   PDE [mg/day] = PoD [mg/kg/day] × BW [kg] / (F1 × F2 × F3 × F4 × F5 × MF × PK)
 * with, for a route other than the study's, the bioavailability correction the guideline gives
 * (PDE_route2 = PDE_route1 × F_route1 / F_route2). Pure: units are checked (core/units) and the
 * derivation carries every input as given and as used.
 */

export const POD_TYPES = ['NOAEL', 'NOEL', 'LOAEL', 'LOEL', 'BMDL', 'NOAEC', 'Clinical'] as const;
export type PodType = (typeof POD_TYPES)[number];

/** EMA/ICH: the PDE assumes a 50 kg adult. */
export const DEFAULT_BODY_WEIGHT = { value: 50, unit: 'kg' } as const;

export interface MonographPdeInput {
  substance: string;
  pointOfDeparture: { type: PodType; value: number; unit: string };
  factors: { f1: number; f2: number; f3: number; f4: number; f5: number };
  /** Modifying factor (Risk-MaPP MF); 1 when none. */
  modifyingFactor?: number;
  /** Pharmacokinetic factor (Risk-MaPP PK); 1 when none. */
  pkFactor?: number;
  bodyWeight?: { value: number; unit: string };
  /** Route-to-route correction: bioavailability of the study route and of the patient route. */
  bioavailability?: { from: number; to: number } | null;
}

export interface MonographPde {
  /** mg/day, full precision (rounding is for display only). */
  pde: { value: number; unit: 'mg' } | null;
  derivation: Derivation;
  /** Why a value cannot be computed (input refused). */
  problems: string[];
}

const REFERENCE =
  'EMA/CHMP/CVMP/SWP/169430/2012 §4.1 (ICH Q3C Appendix 3); route correction per the same guideline';

function positive(name: string, v: number | undefined, problems: string[]): number {
  if (v === undefined) return 1;
  if (!Number.isFinite(v) || v <= 0) problems.push(`${name} must be a positive number`);
  return v;
}

/** Computes the PDE and its derivation; a refused input gives `pde: null` and its problems. */
export function monographPde(m: MonographPdeInput): MonographPde {
  const problems: string[] = [];
  const source = `HBEL monograph ${m.substance}`;
  let pod = Number.NaN;
  let bw = Number.NaN;
  try {
    pod = valueIn(m.pointOfDeparture, 'toxicity', 'mg/kg');
  } catch (e) {
    if (!(e instanceof UnitKindError)) throw e;
    problems.push(`point of departure: ${e.message}`);
  }
  const weight = m.bodyWeight ?? DEFAULT_BODY_WEIGHT;
  try {
    bw = valueIn(weight, 'mass', 'kg');
  } catch (e) {
    if (!(e instanceof UnitKindError)) throw e;
    problems.push(`body weight: ${e.message}`);
  }
  if (!(m.pointOfDeparture.value > 0)) problems.push('point of departure must be positive');
  if (!(weight.value > 0)) problems.push('body weight must be positive');
  const { f1, f2, f3, f4, f5 } = m.factors;
  for (const [k, v] of Object.entries(m.factors)) positive(k.toUpperCase(), v, problems);
  const mf = positive('MF', m.modifyingFactor, problems);
  const pk = positive('PK', m.pkFactor, problems);
  const ba = m.bioavailability ?? null;
  if (ba) {
    positive('bioavailability (study route)', ba.from, problems);
    positive('bioavailability (patient route)', ba.to, problems);
    if (ba.from > 1 || ba.to > 1) problems.push('a bioavailability is a fraction of at most 1');
  }

  const inputs: DerivationInput[] = [
    input(
      'PoD',
      `point of departure (${m.pointOfDeparture.type})`,
      m.pointOfDeparture,
      pod,
      'mg/kg/day',
      source,
    ),
    input('BW', 'body weight', weight, bw, 'kg', source),
    factorInput('F1', 'species extrapolation', f1, source),
    factorInput('F2', 'variability between individuals', f2, source),
    factorInput('F3', 'study duration', f3, source),
    factorInput('F4', 'severe toxicity', f4, source),
    factorInput('F5', 'no NOAEL (LOAEL only)', f5, source),
    factorInput('MF', 'modifying factor', mf, source),
    factorInput('PK', 'pharmacokinetic factor', pk, source),
  ];
  const composite = f1 * f2 * f3 * f4 * f5 * mf * pk;
  const studyRoute = (pod * bw) / composite;
  const steps = [
    step('ΠF', 'F1 × F2 × F3 × F4 × F5 × MF × PK', composite, '-'),
    step('PDE_study', 'PoD × BW / ΠF', studyRoute, 'mg/day'),
  ];
  let pde = studyRoute;
  let formula = 'PDE = PoD × BW / (F1 × F2 × F3 × F4 × F5 × MF × PK)';
  if (ba) {
    inputs.push(factorInput('BA_study', 'bioavailability, study route', ba.from, source));
    inputs.push(factorInput('BA_patient', 'bioavailability, patient route', ba.to, source));
    pde = (studyRoute * ba.from) / ba.to;
    steps.push(step('PDE', 'PDE_study × BA_study / BA_patient', pde, 'mg/day'));
    formula += ' × BA_study / BA_patient';
  }
  const ok = problems.length === 0 && Number.isFinite(pde);
  const note =
    m.pointOfDeparture.type.startsWith('LO') && f5 === 1
      ? 'PoD is a LOAEL but F5 is 1 (EMA: F5 up to 10 when no NOAEL was established)'
      : undefined;
  const derivation: Derivation = {
    quantity: `PDE of ${m.substance}`,
    formula,
    reference: REFERENCE,
    inputs,
    steps,
    result: ok ? result(pde, 'mg/day') : null,
    ...(ok ? (note ? { note } : {}) : { note: problems.join('; ') }),
  };
  return { pde: ok ? { value: pde, unit: 'mg' } : null, derivation, problems };
}
