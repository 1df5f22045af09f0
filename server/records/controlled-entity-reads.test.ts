import { describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { adminEditor, putInForce } from '#server/test/policy-in-force.ts';
import { studyKit, type StudyKit } from '#server/test/study-test-kit.ts';
import type { TControlledDocumentType } from '#core/schemas/signatures.schemas.ts';

/*
 * A plain read of a declared controlled record (SOP, document version, protocol) answers the
 * version in force, alone and in its list (issue 26, "One truth"); `version=draft` answers the
 * version an edit changes. Both carry inForceVersionNumber / draftVersionNumber. A record never
 * approved answers its draft on both reads.
 */

const t = useFacilityTestServer();
let seq = 0;
let kit: Promise<StudyKit> | undefined;

interface Case {
  documentType: TControlledDocumentType;
  path: string;
  /** Creates a record whose `name` is 'Version one', returning its id. */
  create: () => Promise<number>;
  /** An edit of fields besides `name`, and what the first version had in them. */
  edit: Body;
  first: Body;
}

const created = async (path: string, body: Body): Promise<number> => {
  const res = await t.call('POST', `${t.F}/${path}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.id as number;
};

const CASES: Case[] = [
  {
    documentType: 'SOP',
    path: 'sop',
    create: () =>
      created('sop', { sopNumber: `SOP-IF-${++seq}`, name: 'Version one', revision: 'A' }),
    edit: { revision: 'B', description: 'Hot rinse added' },
    first: { revision: 'A', description: null },
  },
  {
    documentType: 'DocumentVersion',
    path: 'document-version',
    create: () =>
      created('document-version', {
        documentNumber: `DOC-IF-${++seq}`,
        name: 'Version one',
        documentType: 'Protocol',
        currentVersion: '1.0',
      }),
    edit: { currentVersion: '2.0', changeSummary: 'Sampling sites moved' },
    first: { currentVersion: '1.0', changeSummary: null },
  },
  {
    documentType: 'Protocol',
    path: 'protocols',
    create: async () => {
      kit ??= studyKit(t);
      return (await (await kit).protocol({ name: 'Version one', description: 'First' }))
        .id as number;
    },
    edit: { description: 'Second' },
    first: { description: 'First' },
  },
];

const read = async (path: string, query = ''): Promise<Body> => {
  const res = await t.call('GET', `${t.F}/${path}${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

/** The record as its list answers it (the first page holds every record of these tests). */
const listed = async (c: Case, id: number, query = ''): Promise<Body> => {
  const page = await read(c.path, `?pageLimit=100${query}`);
  const found = (page.data as Body[]).find((r) => r.id === id);
  expect(found, `${c.path} ${id} in its list`).toBeDefined();
  return found!;
};

describe('a controlled record read', () => {
  it.each(CASES)('$documentType: never approved, both reads answer the draft', async (c) => {
    const id = await c.create();
    const draftState = {
      name: 'Version one',
      status: 'BeingBuilt',
      versionNumber: 1,
      inForceVersionNumber: null,
      draftVersionNumber: 1,
    };
    const plain = await read(`${c.path}/${id}`);
    expect(plain).toMatchObject(draftState);
    expect(await read(`${c.path}/${id}`, '?version=draft')).toEqual(plain);
    expect(await listed(c, id)).toMatchObject(draftState);
  });

  it.each(CASES)(
    '$documentType: edited after approval, the plain read answers the approved version',
    async (c) => {
      const id = await c.create();
      await putInForce(t.server, t.F, adminEditor(t.token), c.documentType, id);
      const approved = await read(`${c.path}/${id}`);
      expect(approved).toMatchObject({
        name: 'Version one',
        ...c.first,
        status: 'Approved',
        versionNumber: 1,
        inForceVersionNumber: 1,
        draftVersionNumber: null,
      });
      // With nothing in progress the draft read is the version in force.
      expect(await read(`${c.path}/${id}`, '?version=draft')).toEqual(approved);

      const saved = await t.call('POST', `${t.F}/${c.path}/${id}`, {
        name: 'Version two',
        ...c.edit,
        version: approved.version,
        reason: 'Periodic review',
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      // A save answers what it saved.
      const draft = {
        name: 'Version two',
        ...c.edit,
        status: 'BeingBuilt',
        versionNumber: 2,
        inForceVersionNumber: 1,
        draftVersionNumber: 2,
      };
      expect(saved.body.result).toMatchObject(draft);

      const inForce = {
        name: 'Version one',
        ...c.first,
        status: 'Approved',
        versionNumber: 1,
        inForceVersionNumber: 1,
        draftVersionNumber: 2,
      };
      const plain = await read(`${c.path}/${id}`);
      expect(plain).toMatchObject(inForce);
      // The lock counter is the record's, whichever version is read: an edit sends it back.
      expect(plain.version).toBe(saved.body.result.version);
      expect(await read(`${c.path}/${id}`, '?version=draft')).toMatchObject({
        ...draft,
        version: plain.version,
      });
      expect(await listed(c, id)).toMatchObject(inForce);
      expect(await listed(c, id, '&version=draft')).toMatchObject(draft);

      await putInForce(t.server, t.F, adminEditor(t.token), c.documentType, id);
      const now = {
        ...draft,
        status: 'Approved',
        inForceVersionNumber: 2,
        draftVersionNumber: null,
      };
      expect(await read(`${c.path}/${id}`)).toMatchObject(now);
      expect(await read(`${c.path}/${id}`, '?version=draft')).toMatchObject(now);
      expect(await listed(c, id)).toMatchObject(now);
    },
  );

  it('refuses an unknown version with 422', async () => {
    const id = await CASES[0]!.create();
    const res = await t.call('GET', `${t.F}/sop/${id}?version=latest`);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ name: 'DataValidationError' });
  });
});
