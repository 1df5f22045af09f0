import { describe, expect, it } from 'vitest';
import { madeBeforeHistory } from '#server/test/before-history.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { reportKit } from '#server/test/report-test-kit.ts';
import { computeReport } from './reports.service.ts';

/*
 * A report built as of a moment before the history of a record it reads began (a record made
 * before versions were kept, changed after the moment) shows that record as first kept, and
 * says so: in its data (hashed), its read, its regeneration and in words in its PDF.
 */
const t = useFacilityTestServer();
const { generate, pdfOf } = reportKit(t);
const scope = () => ({ planId: t.planId, facilityId: t.facilityId });
const NOTE = 'History of some records begins after this moment';

describe('a report built as of a moment before a record’s history began', () => {
  it('says nothing of the kind while every record it reads is within its history', async () => {
    const report = await generate({ kind: 'master-data-snapshot' });
    expect(report.completedAt).toBeTruthy();
    expect(report).not.toHaveProperty('historyStartsAt');
    const { text } = await pdfOf(`/reports/master-data-snapshot/${report.id}/pdf`);
    expect(text).not.toContain(NOTE);
  });

  it('states historyStartsAt in its data as of an earlier moment, and not as of today', async () => {
    await madeBeforeHistory(
      t.server.db,
      scope(),
      'Pump kept from 2024',
      '2020-01-01T00:00:00Z',
      '2024-01-01T00:00:00Z',
    );
    const body = { kind: 'master-data-snapshot' } as const;
    const then = await computeReport(t.server.db, t.facilityId, body, '2022-06-01T00:00:00Z');
    expect(then.historyStartsAt).toBe('2024-01-01T00:00:00.000000Z');
    expect(then.data).toMatchObject({ historyStartsAt: '2024-01-01T00:00:00.000000Z' });
    // The record is in the copy, as first kept (21 CFR 11.10(b)).
    expect(JSON.stringify(then.data)).toContain('Pump kept from 2024');
    const today = await computeReport(t.server.db, t.facilityId, body, new Date().toISOString());
    expect(today.historyStartsAt).toBeUndefined();
    expect(today.data).not.toHaveProperty('historyStartsAt');
  });

  it('states it in its read, its regeneration and in words in its PDF', async () => {
    // The job reads as of the database's clock; a record kept only from a later moment than
    // that (a kept version dated ahead, as after a clock set back) is the same case as a
    // report read again as of an earlier moment.
    await madeBeforeHistory(
      t.server.db,
      scope(),
      'Mixer kept from 2099',
      '2020-01-01T00:00:00Z',
      '2099-01-01T00:00:00Z',
    );
    const report = await generate({ kind: 'master-data-snapshot' });
    expect(report.completedAt, report.error).toBeTruthy();
    expect(report.historyStartsAt).toBe('2099-01-01T00:00:00.000000Z');

    const again = await t.call('GET', `${t.F}/reports/${report.id}/regenerate`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      dataHash: report.dataHash,
      storedDataHash: report.dataHash,
      limitsSnapshotId: report.limitsSnapshotId,
      same: true,
      historyStartsAt: '2099-01-01T00:00:00.000000Z',
    });

    const { text } = await pdfOf(`/reports/master-data-snapshot/${report.id}/pdf`);
    expect(text).toContain(`${NOTE}: records that existed then and were changed before`);
    expect(text).toContain('History of some records begins (UTC) 2099-01-01 00:00:00.000 UTC');
  });
});
