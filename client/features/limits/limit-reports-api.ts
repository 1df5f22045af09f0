import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Derivation } from '#core/limits/derivation.ts';
import type { PairExplanation } from '#core/limits/explain.ts';
import type { SamplingSpec } from '#core/limits/model.ts';
import type {
  ZCleaningAgentLimit,
  ZCleaningAgentLimits,
  ZEquipmentLimits,
  ZLimitUnits,
  ZLowestLimits,
  ZProductionLimits,
  ZProductionPair,
  ZProductionPairs,
  ZWorstCaseRanking,
} from '#core/schemas/limit-reports.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { limitsKeys } from '#client/shared/query-keys.ts';

/*
 * The reports as the server checks them (core/schemas/limit-reports.schemas.ts). Derivations
 * and explanations travel as plain JSON objects; they are the engine's, typed by its own types.
 */
export type LowestLimits = z.output<typeof ZLowestLimits>;
export type LimitUnits = z.output<typeof ZLimitUnits>;
type Explanations = Record<string, PairExplanation>;
/** GET mac-matrix/explain and limits/productions/{id}/explain (ZPairExplanationAnswer). */
export interface PairExplanationAnswer {
  explanation: PairExplanation;
}

type EquipmentLimits = z.output<typeof ZEquipmentLimits>;
export type EquipmentLimitsAnswer = Omit<EquipmentLimits, 'explanations' | 'sampling'> & {
  explanations: Explanations;
  sampling: Pick<SamplingSpec, 'swabArea' | 'rinseVolume'>;
};

type ProductionLimits = z.output<typeof ZProductionLimits>;
type ProductionRow = ProductionLimits['productions'][number];
export interface ProductionLimitsAnswer extends Omit<ProductionLimits, 'productions'> {
  productions: (Omit<ProductionRow, 'explanations'> & { explanations: Explanations })[];
}

type RankingRow = z.output<typeof ZWorstCaseRanking>['products'][number];
export type RankedProduct = Omit<RankingRow, 'derivation'> & { derivation: Derivation };
export type WorstCaseRankingAnswer = Omit<z.output<typeof ZWorstCaseRanking>, 'products'> & {
  products: RankedProduct[];
};

export type CleaningAgentLimit = Omit<z.output<typeof ZCleaningAgentLimit>, 'derivations'> & {
  derivations: Record<string, Derivation>;
};
export type CleaningAgentLimitsAnswer = Omit<z.output<typeof ZCleaningAgentLimits>, 'limits'> & {
  limits: CleaningAgentLimit[];
};

/**
 * The limits reports. Under `limitsKeys.all`, so every master-data change refetches them
 * (see shared/query-keys.ts).
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

export type ProductionPair = z.output<typeof ZProductionPair>;

/** GET {F}/limits/productions/{id}/pairs: the production's own matrix. */
export const useProductionPairs = (productionId: number) =>
  useLimitsReport<z.output<typeof ZProductionPairs>>(
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
        apiRequest<PairExplanationAnswer>(
          `${facilityPath(scope)}/limits/productions/${productionId}/explain`,
          { query: { previous, next }, signal, action: 'Loading the derivation' },
        ).then((answer) => answer.explanation),
    });
}
