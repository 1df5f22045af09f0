import type { TChangeAssessmentLink } from '#core/schemas/change-assessments.schemas.ts';
import type { ReadExtras } from '#server/entities/read-extras.ts';
import { assessmentSummaries } from './change-assessments.read.ts';

/** The change assessments each moc record's read lists (EntityDef.readExtras of mocRecordsDef). */
export const mocChangeAssessments: ReadExtras = async (q, facilityId, ids) => {
  const found = await assessmentSummaries(q, facilityId, { mocIds: ids });
  const byMoc = new Map<number, { changeAssessments: TChangeAssessmentLink[] }>();
  for (const a of [...found].reverse()) {
    if (a.mocId === null) continue;
    const entry = byMoc.get(a.mocId) ?? { changeAssessments: [] };
    entry.changeAssessments.push({
      id: a.id,
      number: a.number,
      title: a.title,
      changeStatus: a.changeStatus,
    });
    byMoc.set(a.mocId, entry);
  }
  return byMoc;
};
