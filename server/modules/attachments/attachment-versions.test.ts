import { describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { SAMPLE_FILES } from './attachment-test-files.ts';
import { countAttachments, download, sendMultipart } from './attachment-test-client.ts';

const t = useFacilityTestServer();

let sequence = 0;
const next = () => ++sequence;

describe('replacing the reference document of an active', () => {
  it('keeps the old document as superseded, with the reason, and moves the version on', async () => {
    const created = await sendMultipart(
      t.server,
      t.token,
      `${t.F}/apis`,
      { name: `Active ${next()}` },
      SAMPLE_FILES.pdf,
    );
    expect(created.status).toBe(200);
    const { id, version } = created.body.result as { id: number; version: number };
    const edited = await sendMultipart(
      t.server,
      t.token,
      `${t.F}/apis/${id}`,
      { reason: 'New toxicology assessment', version },
      SAMPLE_FILES.docx,
    );
    expect(edited.status).toBe(200);
    expect(edited.body.result.version).toBe(version + 1);

    const list = await download(t.server, t.token, `${t.F}/apis/${id}/documents`);
    const [current, old] = list.body.data;
    expect(current).toMatchObject({ fileType: 'docx', status: 'Current', supersededBy: null });
    expect(old).toMatchObject({
      fileType: 'pdf',
      status: 'Superseded',
      supersededBy: current.id,
      archiveReason: 'New toxicology assessment',
    });
    const oldFile = await download(t.server, t.token, `${t.F}/apis/${id}/document/${old.id}`);
    expect(oldFile.raw.equals(Buffer.from(SAMPLE_FILES.pdf.bytes))).toBe(true);

    const audit = await t.server.db.query<{ action: string; reason: string }>(
      `select action, reason from audit_log where domain = 'API' and entity_id = $1 order by seq`,
      [String(id)],
    );
    expect(audit.map((a) => a.action)).toEqual(['Create', 'AttachDocument', 'ReplaceDocument']);
    expect(audit[2]!.reason).toBe('New toxicology assessment');
  });

  it('refuses a replacement made from a stale version, keeping the current document', async () => {
    const created = await sendMultipart(
      t.server,
      t.token,
      `${t.F}/apis`,
      { name: `Active ${next()}` },
      SAMPLE_FILES.pdf,
    );
    const { id, version } = created.body.result as { id: number; version: number };
    const first = await sendMultipart(t.server, t.token, `${t.F}/apis/${id}`, {
      reason: 'Rename',
      version,
      name: `Active ${next()}`,
    });
    expect(first.status).toBe(200);
    const before = await countAttachments(t.server);
    const stale = await sendMultipart(
      t.server,
      t.token,
      `${t.F}/apis/${id}`,
      { reason: 'Replace', version },
      SAMPLE_FILES.png,
    );
    expect(stale.status).toBe(409);
    expect(stale.body.errName).toBe('VersionConflictError');
    expect(await countAttachments(t.server)).toBe(before);
    const list = await download(t.server, t.token, `${t.F}/apis/${id}/documents`);
    expect(list.body.data.map((d: { fileType: string }) => d.fileType)).toEqual(['pdf']);
  });

  it('requires a reason to replace a document', async () => {
    const created = await sendMultipart(t.server, t.token, `${t.F}/apis`, {
      name: `Active ${next()}`,
    });
    const { id, version } = created.body.result as { id: number; version: number };
    const res = await sendMultipart(
      t.server,
      t.token,
      `${t.F}/apis/${id}`,
      { version },
      SAMPLE_FILES.txt,
    );
    expect(res.status).toBe(422);
    expect(res.body.errors[0].property).toBe('reason');
  });

  it('never lets the stored file be changed or deleted in the database', async () => {
    const created = await sendMultipart(
      t.server,
      t.token,
      `${t.F}/apis`,
      { name: `Active ${next()}` },
      SAMPLE_FILES.rtf,
    );
    const [row] = await t.server.db.query<{ id: number }>(
      'select id from attachments where owner_kind = $1 and owner_id = $2',
      ['apis', created.body.result.id],
    );
    await expect(
      t.server.db.query(`update attachments set content = '\\x00' where id = $1`, [row!.id]),
    ).rejects.toThrow(/never changed/);
    await expect(
      t.server.db.query('delete from attachments where id = $1', [row!.id]),
    ).rejects.toThrow(/never deleted/);
  });
});

describe('legacy documents with their file', () => {
  it('takes the file on create, fills its name and type, and serves it at /file', async () => {
    const number = `LD-${next()}`;
    const created = await sendMultipart(
      t.server,
      t.token,
      `${t.F}/legacy-documents`,
      { documentNumber: number, name: 'Cleaning validation report 2019' },
      SAMPLE_FILES.doc,
    );
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ fileName: 'legacy.doc', fileType: 'doc' });
    const id = created.body.result.id as number;
    const file = await download(t.server, t.token, `${t.F}/legacy-documents/${id}/file`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/msword');
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="legacy.doc"; filename*=UTF-8''legacy.doc`,
    );
    expect(file.raw.equals(Buffer.from(SAMPLE_FILES.doc.bytes))).toBe(true);
    const found = await download(t.server, t.token, `${t.F}/legacy-documents?search=${number}`);
    expect(found.body.data).toHaveLength(1);
    expect(found.body.data[0].document).toMatchObject({ fileName: 'legacy.doc', fileType: 'doc' });
    const detail = await download(t.server, t.token, `${t.F}/legacy-documents/${id}`);
    expect(detail.body.document.id).toBe(found.body.data[0].document.id);
  });

  it('answers NotFoundError for the file of a record without one', async () => {
    const created = await t.server.request<{ result: { id: number } }>(
      'POST',
      `${t.F}/legacy-documents`,
      { token: t.token, body: { documentNumber: `LD-${next()}`, name: 'Paper only' } },
    );
    const res = await download(
      t.server,
      t.token,
      `${t.F}/legacy-documents/${created.body.result.id}/file`,
    );
    expect(res.status).toBe(404);
    expect(res.body.errName).toBe('NotFoundError');
  });

  it('names non-ASCII files in RFC 5987 form with an ASCII fallback', async () => {
    const created = await sendMultipart(
      t.server,
      t.token,
      `${t.F}/legacy-documents`,
      { documentNumber: `LD-${next()}`, name: 'Résumé' },
      SAMPLE_FILES.txt,
    );
    const res = await download(
      t.server,
      t.token,
      `${t.F}/legacy-documents/${created.body.result.id}/file`,
    );
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="R_sum_ _g-cm_.txt"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%C2%B5g-cm%C2%B2.txt`,
    );
  });

  it('serves the file only to callers with ReportDocument Get', async () => {
    const created = await sendMultipart(
      t.server,
      t.token,
      `${t.F}/legacy-documents`,
      { documentNumber: `LD-${next()}`, name: 'Old protocol' },
      SAMPLE_FILES.pdf,
    );
    const outsider = await buildUser(t.server.db, {
      permissions: permissionsWith({ AnalyticalMethod: ['Get'] }),
    });
    const outsiderToken = await t.server.login(outsider.username, outsider.password);
    const path = `${t.F}/legacy-documents/${created.body.result.id}`;
    expect((await download(t.server, outsiderToken, `${path}/file`)).status).toBe(403);
    expect((await download(t.server, outsiderToken, `${path}/documents`)).status).toBe(403);
  });
});

describe('multipart where no document is taken', () => {
  it('is refused as invalid and saves nothing', async () => {
    const before = await countAttachments(t.server);
    const res = await sendMultipart(
      t.server,
      t.token,
      `${t.F}/cleaning-procedure`,
      { name: `Procedure ${next()}` },
      SAMPLE_FILES.pdf,
    );
    expect(res.status).toBe(422);
    expect(res.body.errName).toBe('DataValidationError');
    expect(await countAttachments(t.server)).toBe(before);
  });
});
