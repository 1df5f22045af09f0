import type { WorkedCase } from '../limits/golden/worked-cases.ts';
import type { ContractCase, Trace } from './cases.ts';

/*
 * Which requirement each case tests. A worked example names its published source; the
 * requirement is read from what it computes (its criterion), first match wins, so that a case
 * about a swab limit traces to the sampling limits and one about a PDE to the health-based limit.
 */

interface Rule {
  test: RegExp;
  requirement: string;
  guideline: string;
}

const LIMITS_RULES = 'Limits contract, Rules';
const POLICY = 'Product specification section 3, Cleaning limit policy';
const SPEC = 'Product specification section';

const RULES: Rule[] = [
  {
    test: /matrix|3x3/i,
    requirement: `${LIMITS_RULES} and Output (pairs, products, equipment); ${POLICY}`,
    guideline: 'APIC Cleaning Validation Guide (2021) §4 (shared equipment, worst case)',
  },
  {
    test: /rank|rating|RPN|risk|toxicity score|capabil|Cpu/i,
    requirement: `Domain model, Limits and risk (worst-case ranking, risk formulas); ${SPEC} 3, Selection criteria`,
    guideline: 'ICH Q9(R1) Quality Risk Management; ASTM E3106-18',
  },
  {
    test: /nitrosamine|\bAI\b|TTC|M7/i,
    requirement: `${LIMITS_RULES} (health-based criterion from the acceptable intake of a nitrosamine); ${SPEC} 3, Enumerations (AI)`,
    guideline: 'ICH M7(R2); EMA/409815/2020 Nitrosamine impurities',
  },
  {
    test: /PDE|ADE|HBEL|NOAEL|bioavailab|body ?weight|paediatric|pediatric/i,
    requirement: `${LIMITS_RULES} (health-based criterion); Domain model, Master data (PDE/ADE of an active)`,
    guideline: 'EMA/CHMP/CVMP/SWP/169430/2012 (HBEL guideline); ICH Q3C(R8) Appendix 3',
  },
  {
    test: /detergent|cleaning agent/i,
    requirement: `Domain model, Master data (cleaning agents and their limits); ${SPEC} 3, Enumerations (residue type Detergent)`,
    guideline: 'APIC Cleaning Validation Guide (2021) §4.4 (cleaning agents)',
  },
  {
    test: /recovery|swab|rinse|visual|VRL|TOC|extract|SAL|surface|area/i,
    requirement: `${LIMITS_RULES} (surface, swab and rinse limits, recovery); ${SPEC} 3, Allowed units per measure (L3, swab and rinse limits)`,
    guideline: 'PDA Technical Report 29 (recovery); EU GMP Annex 15 §10.6-10.7',
  },
  {
    test: /LD50|NOEL/i,
    requirement: `${LIMITS_RULES} (LD50-based criterion); ${POLICY} (LD50 switch)`,
    guideline: 'APIC Cleaning Validation Guide (2021) §4.3 (LD50 route)',
  },
  {
    test: /10 ?ppm|general limit|MAXCONC|ppm/i,
    requirement: `${LIMITS_RULES} (general limit); ${POLICY} (ARL); ${SPEC} 9, Policy defaults`,
    guideline: 'APIC Cleaning Validation Guide (2021) §4.2 (10 ppm criterion)',
  },
  {
    test: /dose|strength|topical/i,
    requirement: `${LIMITS_RULES} (dose-based criterion); ${POLICY} (dosage switch)`,
    guideline: 'APIC Cleaning Validation Guide (2021) §4.1 (1/1000 of the therapeutic dose)',
  },
];

const FALLBACK: Omit<Rule, 'test'> = {
  requirement: `${LIMITS_RULES}; Domain model, Limits and risk`,
  guideline: 'EU GMP Annex 15 §10.6 (carry-over limits from a toxicological evaluation)',
};

export function workedCaseTrace(c: WorkedCase): Trace {
  const rule = RULES.find((r) => r.test.test(`${c.criterion ?? ''} ${c.id}`)) ?? FALLBACK;
  return {
    requirement: rule.requirement,
    guideline: c.source ? `${rule.guideline}; worked from: ${c.source}` : rule.guideline,
  };
}

/** A contract case traces to its own fields when it has them (the project's and a site's cases). */
export function contractCaseTrace(c: ContractCase): Trace {
  return {
    requirement:
      c.requirement ??
      (c.exitCode === 0
        ? 'Limits contract, Rules and Output'
        : `Limits contract, Errors; ${SPEC} 8, error catalogue (data validation error)`),
    guideline:
      c.guideline ??
      (c.exitCode === 0
        ? 'EU GMP Annex 15 §10.6; EMA/CHMP/CVMP/SWP/169430/2012 (HBEL guideline)'
        : 'EU GMP Annex 11 §5 (built-in checks of data entered)'),
  };
}
