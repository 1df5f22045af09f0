import { describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { SAMPLE_FILES } from './attachment-test-files.ts';
import {
  countAttachments,
  download,
  facilityPath,
  sendMultipart,
} from './attachment-test-client.ts';

// A 1 MB limit keeps the oversized upload small.
const t = useFacilityTestServer({ ATTACHMENT_MAX_MB: '1' });

let sequence = 0;
const method = () => ({ name: `Method ${++sequence}`, testType: 'TOC' });

describe('reference documents of analytical methods', () => {
  it('refuses a caller without AnalyticalMethod Add before reading the file', async () => {
    const reader = await buildUser(t.server.db, {
      permissions: permissionsWith({ AnalyticalMethod: ['Get'] }),
    });
    const readerToken = await t.server.login(reader.username, reader.password);
    const before = await countAttachments(t.server);
    const res = await sendMultipart(
      t.server,
      readerToken,
      `${t.F}/analytical-method`,
      method(),
      SAMPLE_FILES.pdf,
    );
    expect(res.status).toBe(403);
    expect(res.body.errName).toBe('NotAllowed');
    expect(await countAttachments(t.server)).toBe(before);
  });

  it.each(Object.entries(SAMPLE_FILES))(
    'stores a %s file with the method and serves it back byte for byte',
    async (type, file) => {
      const created = await sendMultipart(
        t.server,
        t.token,
        `${t.F}/analytical-method`,
        method(),
        file,
      );
      expect(created.status).toBe(200);
      const id = created.body.result.id as number;
      const list = await download(t.server, t.token, `${t.F}/analytical-method/${id}/documents`);
      expect(list.status).toBe(200);
      const [document] = list.body.data;
      expect(document).toMatchObject({
        fileName: file.name,
        fileType: type,
        sizeBytes: file.bytes.length,
        status: 'Current',
      });
      const res = await download(
        t.server,
        t.token,
        `${t.F}/analytical-method/${id}/document/${document.id}`,
      );
      expect(res.status).toBe(200);
      expect(res.raw.equals(Buffer.from(file.bytes))).toBe(true);
      expect(res.headers.get('content-type')).toBe(document.mediaType);
      expect(res.headers.get('content-disposition')).toContain(
        `filename*=UTF-8''${encodeURIComponent(file.name)}`,
      );
    },
  );

  it('writes the document into the audit trail with its hash, in the create', async () => {
    const created = await sendMultipart(
      t.server,
      t.token,
      `${t.F}/analytical-method`,
      method(),
      SAMPLE_FILES.pdf,
    );
    const rows = await t.server.db.query<{ action: string; new_values: Record<string, unknown> }>(
      `select action, new_values from audit_log where domain = 'AnalyticalMethod' and entity_id = $1 order by seq`,
      [String(created.body.result.id)],
    );
    expect(rows.map((r) => r.action)).toEqual(['Create', 'AttachDocument']);
    const [stored] = await t.server.db.query<{ sha256: string }>(
      'select sha256 from attachments where owner_id = $1',
      [created.body.result.id],
    );
    expect(rows[1]!.new_values).toMatchObject({
      fileName: 'Method TOC-01.pdf',
      sha256: stored!.sha256,
    });
  });

  it('still takes plain JSON, without a document', async () => {
    const res = await t.server.request<{ result: { id: number } }>(
      'POST',
      `${t.F}/analytical-method`,
      {
        token: t.token,
        body: method(),
      },
    );
    expect(res.status).toBe(200);
    const list = await download(
      t.server,
      t.token,
      `${t.F}/analytical-method/${res.body.result.id}/documents`,
    );
    expect(list.body.data).toEqual([]);
  });

  const refusals = [
    ['a type not in the list', { name: 'macro.exe', bytes: SAMPLE_FILES.pdf.bytes }, 'fileType'],
    ['a PNG named .pdf', { name: 'fake.pdf', bytes: SAMPLE_FILES.png.bytes }, 'signature'],
    ['binary named .txt', { name: 'fake.txt', bytes: SAMPLE_FILES.doc.bytes }, 'signature'],
    ['an empty file', { name: 'empty.pdf', bytes: new Uint8Array() }, 'empty'],
    [
      'a file over the limit',
      { name: 'big.pdf', bytes: new Uint8Array(1024 * 1024 + 10).fill(0x25) },
      'size',
    ],
  ] as const;
  it.each(refusals)('refuses %s and saves nothing', async (_, file, constraint) => {
    const data = method();
    const before = await countAttachments(t.server);
    const res = await sendMultipart(t.server, t.token, `${t.F}/analytical-method`, data, file);
    expect(res.status).toBe(422);
    expect(res.body.errName).toBe('DataValidationError');
    expect(res.body.errors[0].property).toBe('document');
    expect(Object.keys(res.body.errors[0].constraints)).toEqual([constraint]);
    expect(await countAttachments(t.server)).toBe(before);
    const found = await t.server.db.query('select id from analytical_methods where name = $1', [
      data.name,
    ]);
    expect(found).toEqual([]);
  });

  it('keeps neither record nor file when the record is invalid', async () => {
    const before = await countAttachments(t.server);
    const res = await sendMultipart(
      t.server,
      t.token,
      `${t.F}/analytical-method`,
      { name: 'No test type' },
      SAMPLE_FILES.pdf,
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { property: string }) => e.property)).toContain('testType');
    expect(await countAttachments(t.server)).toBe(before);
  });

  it('refuses a data part that is not JSON', async () => {
    const form = new FormData();
    form.append('data', '{not json');
    const res = await fetch(`${t.server.url}${t.F}/analytical-method`, {
      method: 'POST',
      headers: { token: t.token },
      body: form,
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: { property: string }[] }).errors[0]!.property).toBe(
      'data',
    );
  });

  it('serves a download only to callers who may read the method, and only in its facility', async () => {
    const created = await sendMultipart(
      t.server,
      t.token,
      `${t.F}/analytical-method`,
      method(),
      SAMPLE_FILES.txt,
    );
    const id = created.body.result.id as number;
    const [doc] = (await download(t.server, t.token, `${t.F}/analytical-method/${id}/documents`))
      .body.data;
    const stranger = await buildUser(t.server.db, {
      permissions: permissionsWith({ API: ['Get'] }),
    });
    const strangerToken = await t.server.login(stranger.username, stranger.password);
    const refused = await download(
      t.server,
      strangerToken,
      `${t.F}/analytical-method/${id}/document/${doc.id}`,
    );
    expect(refused.status).toBe(403);
    const otherF = await facilityPath(t.server, 1);
    const elsewhere = await download(
      t.server,
      t.token,
      `${otherF}/analytical-method/${id}/document/${doc.id}`,
    );
    expect(elsewhere.status).toBe(404);
  });

  it('documents the multipart body in OpenAPI', async () => {
    const doc = await t.server.request<{ paths: Record<string, any> }>('GET', '/api/docs/json'); // eslint-disable-line @typescript-eslint/no-explicit-any -- the OpenAPI document
    const create =
      doc.body.paths['/api/v2/plans/{plan}/facilities/{facility}/analytical-method']!.post;
    expect(Object.keys(create.requestBody.content)).toContain('multipart/form-data');
    expect(create.description).toContain('multipart/form-data');
    const download =
      doc.body.paths[
        '/api/v2/plans/{plan}/facilities/{facility}/analytical-method/{id}/document/{documentId}'
      ];
    expect(download.get.summary).toBeTruthy();
  });
});
