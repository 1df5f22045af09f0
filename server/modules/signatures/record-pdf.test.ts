import { utcMoment } from '#server/records/record-pdf.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import { permissionsWith, buildUser } from '#server/test/factories.ts';
import { startSignTeam, type Person, type SignKit } from '#server/test/sign-test-kit.ts';

let kit: SignKit;
let editor: Person;
let signer: Person;
beforeAll(async () => {
  ({ kit, editor, signer } = await startSignTeam());
});
afterAll(async () => {
  await kit?.close();
});

const pdfOf = (query: string, as: Person = kit.admin) =>
  fetch(`${kit.server.url}${kit.F}/signatures/pdf?${query}`, { headers: { token: as.token } });

// Table cells come back with line breaks and spacing of their own; compare words.
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('the PDF of a controlled record (Part 11 ES-1)', () => {
  it('prints the version, its content and both signers’ names, UTC times and meanings', async () => {
    const procedure = await kit.call('POST', `${kit.F}/cleaning-procedure`, {
      name: `Wash ${process.pid}`,
    });
    expect(procedure.status).toBe(200);
    const sop = await kit.createSop(editor);
    const current = await kit.call('GET', `${kit.F}/sop/${sop.id}`, undefined, editor);
    const withProcedure = await kit.call(
      'POST',
      `${kit.F}/sop/${sop.id}`,
      {
        cleaningProcedureIds: [procedure.body.result.id],
        reason: 'Procedure named',
        version: current.body.version,
      },
      editor,
    );
    expect(withProcedure.status).toBe(200);
    expect((await kit.signSop(sop.id, 'Submit', editor)).status).toBe(200);
    const approved = await kit.signSop(sop.id, 'Approve', signer);
    expect(approved.status).toBe(200);
    const listed = await kit.call(
      'GET',
      `${kit.F}/signatures?documentType=SOP&documentId=${sop.id}`,
    );
    const signatures = listed.body.signatures as Record<string, string>[];
    expect(signatures).toHaveLength(2);

    const res = await pdfOf(`documentType=SOP&documentId=${sop.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const text = flat((await readPdfText(new Uint8Array(await res.arrayBuffer()))).text);
    expect(text).toContain(sop.sopNumber);
    // Fields under their labels, references by name (the signed content holds the id).
    expect(text).toContain(`Cleaning procedures Wash ${process.pid} `);
    expect(text).toContain('Document type SOP');
    expect(text).toContain('Version 1 Status Active');
    expect(text).toContain('Signature manifest');
    for (const s of signatures) {
      expect(text).toContain(s.printedName);
      expect(text).toContain(utcMoment(String(s.signedAt)));
      expect(text).toContain(s.meaning);
      expect(text).toContain(s.contentHash);
    }
    expect(text).toContain(editor.name);
    expect(text).toContain(signer.name);
    // Each signature's fixed meaning stands in the manifest (checked for each above).
    expect(signatures.map((s) => s.meaning)).toEqual(['Submitted for review', 'Approved']);
    expect(text).toContain('Submitted for review');
    const [audit] = await kit.server.db.query<{ new_values: Record<string, unknown> }>(
      `select new_values from audit_log where domain = 'ElectronicSignature' and action = 'Export'
        order by id desc limit 1`,
    );
    expect(audit?.new_values).toMatchObject({ documentType: 'SOP', documentId: sop.id });
  });

  it('prints a version being built without signatures, and refuses what it may not show', async () => {
    const sop = await kit.createSop(editor);
    const res = await pdfOf(`documentType=SOP&documentId=${sop.id}&versionNumber=1`, editor);
    expect(res.status).toBe(200);
    const text = flat((await readPdfText(new Uint8Array(await res.arrayBuffer()))).text);
    expect(text).toContain('Status Being Built');
    expect(text).toContain('Cleaning procedures —');
    expect(text).toContain('This version has no signatures yet.');

    expect((await pdfOf(`documentType=SOP&documentId=${sop.id}&versionNumber=2`)).status).toBe(404);
    expect((await pdfOf('documentType=SOP&documentId=999999')).status).toBe(404);
    expect((await pdfOf(`documentType=Nonsense&documentId=${sop.id}`)).status).toBe(422);
    const outsider = await buildUser(kit.server.db, {
      facilityIds: [kit.facilityId],
      permissions: permissionsWith({ Equipment: ['Get'] }),
    });
    const token = await kit.server.login(outsider.username, outsider.password);
    const refused = await pdfOf(`documentType=SOP&documentId=${sop.id}`, {
      ...editor,
      token,
    });
    expect(refused.status).toBe(403);
  });
});
