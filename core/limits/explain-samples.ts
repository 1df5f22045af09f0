import { FIXED, PER_SAMPLE_CAP } from './matrix.ts';
import type { PairView, SampleRule } from './matrix.ts';
import type { CompiledLimits } from './compile.ts';
import { factorInput, from, fromPolicy, input, result } from './derivation.ts';
import type { Derivation, SourceRecord } from './derivation.ts';

/**
 * Which rule set a sample limit, in words. The policy's fixed limit and per-sample cap are
 * ceilings, so the derivation says whether the calculation or the ceiling governs.
 */
export function sampleRuleNote(rule: SampleRule, fixedInUse: boolean): string | undefined {
  if (rule === FIXED) {
    return 'the policy’s fixed sample limit governs: it is lower than the calculated limit';
  }
  if (rule === PER_SAMPLE_CAP) return 'capped at the policy’s per-sample limit';
  return fixedInUse
    ? 'the calculated limit governs: it is lower than the policy’s fixed sample limit'
    : undefined;
}

function recoveryInput(m: CompiledLimits, r: number, ownPercentage?: number, typeName?: string) {
  const { policy } = m.input;
  const own = ownPercentage !== undefined && ownPercentage > 0 && ownPercentage / 100 === r;
  let source: string | SourceRecord = 'no recovery applied (1)';
  if (own) source = typeName ? from('samplingType', typeName, 'recovery') : 'sampling recovery';
  else if (policy.useGlobalRecoveryPercentage) {
    source = fromPolicy(policy.residueType, 'global recovery percentage');
  }
  return factorInput('r', 'recovery fraction', r, source);
}

export const derived = (what: string) => `${what}, derived above`;

/** The governing MACO as an input of a later step. */
export function macoInput(maco: number) {
  return input(
    'MACO',
    'governing MACO',
    { value: maco, unit: 'mg' },
    maco,
    'mg',
    derived('governing MACO'),
  );
}

/** The swab and rinse limits of a pair, as the matrix computed them, each with its derivation. */
export function sampleDerivations(
  m: CompiledLimits,
  view: PairView,
): { swabLimit?: Derivation; rinseLimit?: Derivation } {
  const { sampling, policy } = m.input;
  const salInput = input(
    'SAL',
    'surface limit',
    { value: view.sal, unit: 'mg/sqcm' },
    view.sal,
    'mg/sqcm',
    derived('surface limit'),
  );
  const sampleSource = (typeName: string | undefined, field: string) =>
    typeName ? from('samplingType', typeName, field) : `sampling: ${field}`;
  const out: { swabLimit?: Derivation; rinseLimit?: Derivation } = {};
  if (sampling.swabArea) {
    const note = sampleRuleNote(view.swabRule, policy.useFixedSampleLimits);
    out.swabLimit = {
      quantity: 'swab limit (L4a)',
      formula: 'swab = SAL × swab area × r',
      reference:
        'LeBlanc L4a; recovery multiplies the limit (LeBlanc, recovery percentages; never divide)',
      inputs: [
        salInput,
        input(
          'As',
          'swab area',
          sampling.swabArea,
          m.swabAreaSqcm,
          'sqcm',
          sampleSource(sampling.swabTypeName, 'swab area'),
        ),
        recoveryInput(m, m.swabRecovery, sampling.swabRecoveryPercentage, sampling.swabTypeName),
      ],
      steps: [],
      result: result(view.swabLimit, 'mg/swab'),
      ...(note ? { note } : {}),
    };
  }
  if (sampling.rinseVolume) {
    const note = sampleRuleNote(view.rinseRule, policy.useFixedSampleLimits);
    const basis = m.useSar
      ? input('SAL', 'surface limit', salInput.given, view.sal, 'mg/sqcm', salInput.source)
      : macoInput(view.maco);
    out.rinseLimit = {
      quantity: 'rinse limit (L4b)',
      formula: m.useSar ? 'rinse = SAL × A × r / V' : 'rinse = MACO × r / V',
      reference: m.useSar
        ? 'LeBlanc L4b (Cleaning Memo Jan 2009); recovery multiplies the limit'
        : 'APIC target value (the rinse reaches the whole area); recovery multiplies the limit',
      inputs: [
        basis,
        ...(m.useSar
          ? [
              input(
                'A',
                'area',
                { value: view.area, unit: 'sqcm' },
                view.area,
                'sqcm',
                derived('area'),
              ),
            ]
          : []),
        recoveryInput(m, m.rinseRecovery, sampling.rinseRecoveryPercentage, sampling.rinseTypeName),
        input(
          'V',
          'rinse volume',
          sampling.rinseVolume,
          m.rinseVolumeMl,
          'ml',
          sampleSource(sampling.rinseTypeName, 'rinse volume'),
        ),
      ],
      steps: [],
      result: result(view.rinseLimit, 'mg/ml'),
      ...(note ? { note } : {}),
    };
  }
  return out;
}
