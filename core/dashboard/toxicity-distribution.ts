import { TOXICITY_BANDS, scoreByBands } from '../limits/risk.ts';
import { toBase } from '../units/quantity.ts';
import type { Quantity } from '../units/quantity.ts';
import type { TToxicityScore } from '../schemas/dashboard.schemas.ts';

const BAND_LABELS: Record<number, string> = {
  1: 'PDE over 500 µg/day',
  2: 'PDE 100–500 µg/day',
  3: 'PDE 10–100 µg/day',
  4: 'PDE 1–10 µg/day',
  5: 'PDE under 1 µg/day',
};

/**
 * How many actives fall in each toxicity score of the worst-case ranking (TOXICITY_BANDS of
 * core/limits/risk.ts, on the PDE in µg/day; 5 is the most potent). An active without a PDE, or
 * with one in a unit that is not a mass per day, is counted as not recorded.
 */
export function toxicityDistribution(pdes: readonly (Quantity<string> | null)[]): TToxicityScore {
  const counts = new Map<number, number>(TOXICITY_BANDS.map((band) => [band.score, 0]));
  let notRecorded = 0;
  for (const pde of pdes) {
    let score: number | undefined;
    try {
      if (pde) score = scoreByBands(toBase(pde, 'mass') * 1000, TOXICITY_BANDS);
    } catch {
      score = undefined;
    }
    if (score === undefined) notRecorded++;
    else counts.set(score, (counts.get(score) ?? 0) + 1);
  }
  return {
    bands: [...counts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([score, count]) => ({ score, label: BAND_LABELS[score] ?? `Score ${score}`, count })),
    notRecorded,
    total: pdes.length,
  };
}
