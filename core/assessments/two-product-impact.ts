import { applyWhatIf } from '../limits/limits.what-if.ts';
import { pdeEdit, twoProductFacility } from '../limits/two-product-facility.ts';
import { changeImpact } from './change-impact.ts';
import type { ChangeImpact } from './change-impact.ts';

/**
 * For tests: the impact of a change that moves no limit (issue 30). Syrup B's PDE 5 → 2 mg
 * moves its health-based criterion B → A, 5 mg × 100 kg / 400 mg = 1,250,000 mg → 500,000 mg,
 * while the general limit of 10 ppm × 100 kg = 1,000 mg governs before and after.
 */
export function criterionOnlyImpact(): ChangeImpact {
  const before = twoProductFacility();
  const after = applyWhatIf(before, [pdeEdit('b1', 2000)]);
  return changeImpact(before, after, { trains: [], methods: [], results: [] });
}
