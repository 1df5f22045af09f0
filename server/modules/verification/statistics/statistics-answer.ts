import type { z } from 'zod';
import {
  ZStatisticsResponse,
  type TStatisticsResponse,
  type ZStatisticsQuery,
} from '#core/schemas/verification.schemas.ts';
import { verificationStatistics } from '#core/verification/statistics.ts';
import { statisticsToWire } from '#core/verification/statistics-columns.ts';
import type { Queryable } from '#server/db/db.ts';
import { compileResponseWriter } from '#server/http/response-serializer.ts';
import { statisticsPoints } from './statistics-points.ts';
import { verificationSettings } from './verification-settings.ts';

let writer: ((value: unknown) => string | undefined) | undefined;

/** The answer's JSON as the route's serializer writes it; a value the schema refuses throws. */
export function writeStatisticsResponse(answer: TStatisticsResponse): string {
  // Compiled at the first answer, as the serializer is, not at start.
  writer ??= compileResponseWriter(ZStatisticsResponse);
  return writer(answer) ?? JSON.stringify(ZStatisticsResponse.parse(answer));
}

/** The statistics of one group as the facility's data stands now. */
export async function statisticsAnswer(
  q: Queryable,
  facility: number,
  query: z.infer<typeof ZStatisticsQuery>,
): Promise<TStatisticsResponse> {
  const [settings, { label, points, invalidated }] = await Promise.all([
    verificationSettings(q, facility),
    statisticsPoints(q, facility, query),
  ]);
  // The alerts' messages are not sent: the client words them in the facility's date format
  // from each point's rules (statisticsFromWire), so the facility's formats are not read here.
  const statistics = verificationStatistics(points, settings);
  return {
    statistics: {
      groupBy: query.groupBy,
      key: query.key,
      label,
      ...statisticsToWire(statistics, settings),
      invalidatedCount: invalidated.length,
      invalidated,
    },
  };
}
