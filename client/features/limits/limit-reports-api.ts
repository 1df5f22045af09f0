import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Derivation } from '../../../core/limits/derivation.ts';
import type { PairExplanation } from '../../../core/limits/explain.ts';
import type { TUncomputable } from '../../../core/schemas/mac-matrix.schemas.ts';
import { apiRequest } from '../../api/http-client.ts';
import { facilityPath } from '../master-data/entity-api.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { limitsKeys } from '../../app/query-keys.ts';

/** A lowest limit and the previous → next pair that set it; null when no pair has one. */
export interface LowestLimit {
  value: number | null;
  pair: [string, string] | null;
}

export interface LowestLimits {
  maco: LowestLimit;
  sal: LowestLimit;
  swab: LowestLimit;
  rinse: LowestLimit;
}

export type LimitUnits = Record<keyof LowestLimits, string>;

/** Products and equipment each report left out because their stored data cannot be computed. */
interface LeftOut {
  uncomputable: TUncomputable[];
}

export interface EquipmentLimitsAnswer extends LeftOut {
  equipment: (LowestLimits & { id: string; pairCount: number })[];
  explanations: Record<string, PairExplanation>;
  /** The swab area and rinse volume used, from the facility's sampling types. */
  sampling: {
    swabArea?: { value: number; unit: string };
    rinseVolume?: { value: number; unit: string };
  };
  units: LimitUnits;
}

export interface ProductionLimitsAnswer extends LeftOut {
  productions: (LowestLimits & {
    id: number;
    name: string;
    productCount: number;
    equipmentCount: number;
    pairCount: number;
    explanations: Record<string, PairExplanation>;
  })[];
  units: LimitUnits;
}

export interface RankedProduct {
  rank: number;
  id: string;
  scores: Record<string, number>;
  score: number | null;
  lowestMaco: number | null;
  derivation: Derivation;
}

export interface WorstCaseRankingAnswer extends LeftOut {
  products: RankedProduct[];
  perEquipment: Record<string, string | null>;
  criteria: { attribute: string; worst: 'highest' | 'lowest' }[];
  formula: { name: string; expression: string } | null;
}

export interface CleaningAgentLimit {
  agent: string;
  next: string;
  health: number | null;
  ld50: number | null;
  arl: number | null;
  maco: number | null;
  governing: string | null;
  area: number | null;
  sal: number | null;
  derivations: Record<string, Derivation>;
}

export interface CleaningAgentLimitsAnswer extends LeftOut {
  limits: CleaningAgentLimit[];
}

/**
 * The limits reports. Under `limitsKeys.all`, so every master-data change refetches them
 * (see app/query-keys.ts).
 */
function useLimitsReport<T>(path: string, action: string) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: limitsKeys.report(scope.facilityId, path),
    queryFn: ({ signal }) => apiRequest<T>(`${facilityPath(scope)}${path}`, { signal, action }),
  });
}

export const useWorstCaseRanking = () =>
  useLimitsReport<WorstCaseRankingAnswer>(
    '/limits/worst-case-ranking',
    'Loading the worst-case ranking',
  );
export const useEquipmentLimits = () =>
  useLimitsReport<EquipmentLimitsAnswer>('/limits/equipment', 'Loading the equipment limits');
export const useProductionLimits = () =>
  useLimitsReport<ProductionLimitsAnswer>('/limits/productions', 'Loading the production limits');
export const useCleaningAgentLimits = () =>
  useLimitsReport<CleaningAgentLimitsAnswer>(
    '/limits/cleaning-agents',
    'Loading the cleaning-agent limits',
  );

export const pairKey = ([previous, next]: readonly [string, string]) => `${previous} → ${next}`;

export interface ProductionPair {
  previous: string;
  next: string;
  governing: string | null;
  maco: number | null;
  sal: number | null;
  swab: number | null;
  rinse: number | null;
}

/** GET {F}/limits/productions/{id}/pairs: the production's own matrix. */
export const useProductionPairs = (productionId: number) =>
  useLimitsReport<{ pairs: ProductionPair[]; units: LimitUnits } & LeftOut>(
    `/limits/productions/${productionId}/pairs`,
    'Loading the pairs of the production',
  );

/** Fetches (or reuses) the explanation of one pair of a production, when its number is opened. */
export function useExplainProductionPair() {
  const scope = useFacilityScope();
  const client = useQueryClient();
  return (productionId: number, previous: string, next: string) =>
    client.fetchQuery({
      queryKey: limitsKeys.productionExplain(scope.facilityId, productionId, previous, next),
      queryFn: ({ signal }) =>
        apiRequest<{ explanation: PairExplanation }>(
          `${facilityPath(scope)}/limits/productions/${productionId}/explain`,
          { query: { previous, next }, signal, action: 'Loading the derivation' },
        ).then((answer) => answer.explanation),
    });
}
