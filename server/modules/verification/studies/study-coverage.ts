import {
  latestStudyOf,
  studyScope,
  type CoveringStudy,
  type ProtocolScope,
} from '#core/verification/coverage.ts';
import type { TStudyOutcome } from '#core/schemas/verification.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { equipmentTrainsDef } from '#core/entities/defs/index.ts';
import { tableAsOf } from '#server/entities/entity-history.ts';
import { recordsInForce } from '#server/records/controlled-entities.ts';

/*
 * The coverage model's reads (core/verification/coverage.ts): every study of the facility with
 * the equipment and products it covers, and each item of equipment with its latest covering
 * study. The dashboard, the studies' Overdue filter, the cleaning assessment's coverage matrix
 * and the annual summary read these two functions and nothing else for coverage.
 */

export interface ScopedStudy extends CoveringStudy {
  seq: number;
}

export interface CoverageOptions {
  /** The studies, productions, equipment trains, locations and equipment as they stood then. */
  asOf?: string | undefined;
}

/** A FROM item for a facility table ($1), or the table as of the moment ($2). */
const source = (table: string, asOf: string | undefined) =>
  asOf ? `(select * from ${tableAsOf(table, 1, 2)})` : table;

/**
 * Each equipment train's items as its version in force had them (now, or at `asOf`): a draft of
 * a train covers nothing (21 CFR 211.100(a)); a train archived since still names what it had.
 */
async function trainsInForce(q: Queryable, facilityId: number, asOf: string | undefined) {
  const trains = await q.query<{ id: number; equipmentIds: number[] }>(
    `select id, equipment_ids as "equipmentIds" from equipment_trains where facility_id = $1`,
    [facilityId],
  );
  return recordsInForce(q, equipmentTrainsDef, facilityId, trains, { asOf });
}

/** Every study of the facility with what it covers, oldest first. */
export async function studyCoverage(
  q: Queryable,
  facilityId: number,
  { asOf }: CoverageOptions = {},
): Promise<ScopedStudy[]> {
  const params = asOf ? [facilityId, asOf] : [facilityId];
  const [studies, trains, equipmentTrains, locations] = await Promise.all([
    q.query<{
      id: number;
      seq: number;
      outcome: TStudyOutcome;
      at: Date | string;
      protocol: ProtocolScope;
    }>(
      `select s.id, s.seq, s.outcome, coalesce(s.closed_at, s.updated_at) as at,
              jsonb_build_object(
                'productionId', s.protocol_content -> 'productionId',
                'trainId', s.protocol_content -> 'trainId',
                'equipmentIds', s.protocol_content -> 'equipmentIds',
                'productIds', s.protocol_content -> 'productIds',
                'samplingPlan', s.protocol_content -> 'samplingPlan') as protocol
         from ${source('studies', asOf)} s
        where s.facility_id = $1
        order by s.id`,
      params,
    ),
    q.query<{ id: number; equipment_ids: number[] }>(
      `select p.id, p.equipment_ids from ${source('productions', asOf)} p where p.facility_id = $1`,
      params,
    ),
    trainsInForce(q, facilityId, asOf),
    q.query<{ id: number; equipment_id: number }>(
      `select l.id, l.equipment_id from ${source('sampling_locations', asOf)} l
        where l.facility_id = $1`,
      params,
    ),
  ]);
  const trainEquipment = new Map(trains.map((t) => [t.id, t.equipment_ids ?? []]));
  const trainItems = new Map(equipmentTrains.map((t) => [t.id, t.equipmentIds ?? []]));
  const locationEquipment = new Map(locations.map((l) => [l.id, l.equipment_id]));
  const lookups = {
    trainEquipment: (id: number) => trainEquipment.get(id) ?? [],
    equipmentTrainItems: (id: number) => trainItems.get(id) ?? [],
    locationEquipment: (id: number) => locationEquipment.get(id),
  };
  return studies.map((s) => ({
    id: s.id,
    seq: s.seq,
    outcome: s.outcome,
    at: new Date(s.at).toISOString(),
    ...studyScope(s.protocol, lookups),
  }));
}

export interface EquipmentCoverage {
  id: number;
  name: string;
  /** The latest study covering the item, or null: Not covered. */
  study: ScopedStudy | null;
}

/** Each item of equipment in use (not archived, then with asOf) with its latest covering study. */
export async function equipmentCoverage(
  q: Queryable,
  facilityId: number,
  options: CoverageOptions = {},
): Promise<EquipmentCoverage[]> {
  const { asOf } = options;
  const [equipment, studies] = await Promise.all([
    q.query<{ id: number; name: string }>(
      `select e.id, e.name from ${source('equipment', asOf)} e
        where e.facility_id = $1 and e.archived_at is null order by e.id`,
      asOf ? [facilityId, asOf] : [facilityId],
    ),
    studyCoverage(q, facilityId, options),
  ]);
  const latest = latestStudyOf(
    equipment.map((e) => e.id),
    studies,
  );
  return equipment.map((e) => ({ id: e.id, name: e.name, study: latest.get(e.id) ?? null }));
}
