import { formatDateTime } from '#core/datetime/format-date-time.ts';
import type { EntityRecord } from '#server/entities/entity-store.ts';
import { loadFacility, masterWorkbook } from '#server/modules/master/master-export.ts';
import { entitySections } from '#server/modules/master/master-sections.ts';
import { reportTable } from '../controlled-pdf.ts';
import type { ReportKind } from '../report-kinds.ts';

/*
 * The master-data snapshot (spec §3 report kinds): the facility's master records as they stood
 * at the report's moment. Its xlsx is the master workbook of GET {F}/master as of then; its PDF
 * a summary: the count per section and each section's records.
 */

interface Data {
  sections: { sheet: string; key: string; records: EntityRecord[] }[];
}

const text = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

export const masterDataSnapshotKind: ReportKind = {
  async compute(q, facilityId, _parameters, asOf) {
    const { records } = await loadFacility(q, facilityId, { asOf });
    const data: Data = {
      sections: entitySections().map(({ sheet, def }) => ({
        sheet,
        key: def.key,
        records: records.get(def.key) ?? [],
      })),
    };
    return { title: 'Master data snapshot', data };
  },
  pdfContent(raw, settings) {
    const { sections } = raw as Data;
    const total = sections.reduce((n, s) => n + s.records.length, 0);
    return [
      { text: `${total} master records in ${sections.length} sections`, margin: [0, 0, 0, 8] },
      reportTable(
        ['Section', 'Records'],
        [200, 60],
        sections.map((s) => [s.sheet, String(s.records.length)]),
      ),
      ...sections.flatMap((s) => [
        { text: `${s.sheet} (${s.records.length})`, style: 'h2' },
        s.records.length === 0
          ? { text: 'None.', italics: true }
          : reportTable(
              ['Name', 'External ID', 'Version', 'Last changed'],
              ['*', 120, 50, 130],
              s.records.map((r) => [
                text(r.name),
                text(r.externalId),
                String(r.version),
                formatDateTime(r.updatedAt, settings),
              ]),
            ),
      ]),
    ];
  },
  xlsx(raw, meta) {
    const { sections } = raw as Data;
    return masterWorkbook(new Map(sections.map((s) => [s.key, s.records])), new Date(meta.asOf));
  },
};
