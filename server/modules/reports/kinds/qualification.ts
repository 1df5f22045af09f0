import type { QualificationPack } from '#core/qualification/pack.ts';
import { qualificationPdfContent } from '#server/modules/qualification/qualification-pdf.ts';
import { runQualification } from '#server/modules/qualification/qualification-run.ts';
import type { ReportKind } from '../report-kinds.ts';

/*
 * The qualification pack from the screen (issue 33): the same pack as `npm run qualification`,
 * stored with its data hash and signed as a ReportDocument (reviewed and approved like any
 * controlled report), so a site files it with the signatures of who accepted it.
 */
export const qualificationKind: ReportKind = {
  async compute(q, _facilityId, _parameters, asOf) {
    return { title: 'Qualification pack', data: await runQualification(q, asOf) };
  },
  pdfContent(data, settings) {
    return qualificationPdfContent(data as QualificationPack, settings);
  },
  fontSize: 7,
};
