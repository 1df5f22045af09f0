import { randomBytes } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';
import { reportKit } from '#server/test/report-test-kit.ts';
import { sha256 } from './controlled-pdf.ts';
import {
  bufferToStore,
  PIECE_BYTES,
  READ_BYTES,
  storedReportFile,
  storeReportFile,
} from './report-file-store.ts';

/*
 * Issue 34: a report's file is stored and read a piece at a time; the bytes read back are the
 * bytes stored, whatever the number of pieces, and a state is stored once.
 */
const t = useFacilityTestServer();
let facility: MacFacility;
beforeAll(async () => {
  facility = await buildMacFacility(t.server, t.facilityId);
});
const { generate, pdfOf } = reportKit(t, () => facility.F);

describe('A stored report file', () => {
  it('reads back byte for byte from its pieces, and is stored once per state', async () => {
    const report = await generate({ kind: 'worst-case-ranking' });
    const bytes = randomBytes(2 * PIECE_BYTES + 12_345);
    const file = bufferToStore(bytes);
    expect(file.sha256).toBe(sha256(bytes));
    await t.server.db.transaction((tx) =>
      storeReportFile(tx, report.id as number, 'pdf', 'test state', file),
    );
    // The same state again changes nothing.
    await t.server.db.transaction((tx) =>
      storeReportFile(tx, report.id as number, 'pdf', 'test state', bufferToStore(randomBytes(10))),
    );
    const stored = await storedReportFile(t.server.db, report.id as number, 'pdf', 'test state');
    expect(stored!.bytes).toBe(bytes.length);
    expect((await buffer(stored!.body)).equals(bytes)).toBe(true);
    const [pieces] = await t.server.db.query<{ n: number }>(
      `select count(*)::int as n from report_file_parts p join report_files f on f.id = p.report_file_id
        where f.report_id = $1 and f.state_key = 'test state'`,
      [report.id],
    );
    expect(pieces!.n).toBe(3);
  });

  it('reads back byte for byte whatever its size against the pieces and the reads', async () => {
    // A piece is read READ_BYTES at a time: sizes that end a read, a piece, or neither.
    const report = await generate({ kind: 'worst-case-ranking' });
    const sizes = [0, 1, READ_BYTES, READ_BYTES + 1, PIECE_BYTES, PIECE_BYTES + READ_BYTES - 1];
    for (const size of sizes) {
      const bytes = randomBytes(size);
      await t.server.db.transaction((tx) =>
        storeReportFile(tx, report.id as number, 'pdf', `size ${size}`, bufferToStore(bytes)),
      );
      const stored = await storedReportFile(
        t.server.db,
        report.id as number,
        'pdf',
        `size ${size}`,
      );
      expect(stored!.bytes).toBe(size);
      expect((await buffer(stored!.body)).equals(bytes)).toBe(true);
    }
  });

  it('is downloaded with its size, and hashes as its report lists it', async () => {
    const report = await generate({ kind: 'production-limits' });
    const { res, sha256: downloaded } = await pdfOf(`/reports/production-limits/${report.id}/pdf`);
    const [file] = await t.server.db.query<{ size: string | number }>(
      `select size from report_files where report_id = $1 and format = 'pdf'`,
      [report.id],
    );
    expect(res.headers.get('content-length')).toBe(String(file!.size));
    const listed = (report.files as { format: string; sha256: string }[]).find(
      (f) => f.format === 'pdf',
    );
    expect(downloaded).toBe(listed!.sha256);
  });
});
