import { cleaningAgentsDef } from '#core/entities/defs/cleaning.def.ts';
import { cleaningAgentLimits, type CleaningAgentSpec } from '#core/limits/cleaning-agent.ts';
import type { Queryable } from '#server/db/db.ts';
import { allEntities, historyNote } from '#server/entities/entity-store.ts';
import { limitsPolicy } from '../policies/policy-in-force.ts';
import { computableLimitsInput } from './computable-input.ts';
import type { AsOf } from './limit-reports.service.ts';

// Engine results carry NaN for "none"; JSON has no NaN, so they travel as null.
const nullable = (v: number) => (Number.isFinite(v) ? v : null);

/**
 * Each cleaning agent's limits in every product that may follow, under the Detergent policy
 * (GET limits/cleaning-agents and the cleaning-agent-limits report), as of `asOf` or now.
 */
export async function cleaningAgentLimitRows(q: Queryable, facilityId: number, at: AsOf = {}) {
  const [read, agents, policy] = await Promise.all([
    computableLimitsInput(q, facilityId, { asOf: at.asOf }),
    allEntities(q, cleaningAgentsDef, facilityId, { asOf: at.asOf }),
    limitsPolicy(q, facilityId, 'Detergent', { asOf: at.asOf }),
  ]);
  const { input, uncomputable } = read;
  const limits = agents.flatMap((agent) => {
    const spec: CleaningAgentSpec = { id: agent.name as string };
    if (agent.pde) spec.hbel = agent.pde as CleaningAgentSpec['hbel'];
    if (agent.ld50) spec.ld50 = agent.ld50 as CleaningAgentSpec['ld50'];
    // "Ceiling (ppm)" is stored as a plain number in ppm (the field's unit is in its label).
    if (typeof agent.ppmCeiling === 'number') {
      spec.ceiling = { value: agent.ppmCeiling, unit: 'ppm' };
    }
    return cleaningAgentLimits(
      spec,
      input.products,
      input.equipment,
      input.trains,
      policy.content as unknown as Parameters<typeof cleaningAgentLimits>[4],
    );
  });
  return {
    limits: limits.map((l) => ({
      ...l,
      health: nullable(l.health),
      ld50: nullable(l.ld50),
      arl: nullable(l.arl),
      ceiling: nullable(l.ceiling),
      maco: nullable(l.maco),
      area: nullable(l.area),
      sal: nullable(l.sal),
      derivations: JSON.parse(JSON.stringify(l.derivations)) as Record<string, unknown>,
    })),
    units: { maco: 'mg' as const, area: 'sqcm' as const, sal: 'mg/sqcm' as const },
    uncomputable,
    ...historyNote([read, ...agents]),
  };
}
