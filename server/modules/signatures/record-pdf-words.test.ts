import { beforeAll, describe, expect, it } from 'vitest';
import { SIGNED_DOCUMENT_TYPES } from '#core/schemas/signatures.schemas.ts';
import { seedDemoStory } from '#server/cli/seed-demo.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';

/*
 * Issue 30 and Part 11 §11.10(b): the PDF of every controlled record the demo story signs or
 * builds prints each field under a label, never the content's key ('agentLot', 'productBatch'),
 * and its values as words (readPdfText fails on a code, a record id, an ISO time or raw JSON).
 */

const t = useFacilityTestServer();

beforeAll(async () => {
  await seedDemoStory(t.server, t.facilityId);
}, 600_000);

/** A key of stored content as code writes it: 'agentLot', 'limitsSnapshotId'. */
const isCodeKey = (key: string) => /[a-z][A-Z]/.test(key);

function keysOf(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => keysOf(item, into));
  else if (value !== null && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) {
      into.add(key);
      keysOf(inner, into);
    }
  return into;
}

describe('the PDF of every controlled record', () => {
  it('names every field in words and prints its value as words', { timeout: 300_000 }, async () => {
    const versions = await t.server.db.query<{
      document_type: string;
      document_id: number;
      content: Record<string, unknown>;
    }>(
      `select distinct on (document_type) document_type, document_id, content
         from controlled_versions where facility_id = $1
        order by document_type, jsonb_array_length(jsonb_path_query_array(content, '$.*')) desc`,
      [t.facilityId],
    );
    const types = versions.map((v) => v.document_type);
    // The demo story builds most kinds of controlled record; every one it builds is printed.
    expect(types.length).toBeGreaterThanOrEqual(8);
    expect(SIGNED_DOCUMENT_TYPES).toEqual(expect.arrayContaining(types));
    const found: string[] = [];
    for (const version of versions) {
      const res = await fetch(
        `${t.server.url}${t.F}/signatures/pdf?documentType=${version.document_type}&documentId=${version.document_id}`,
        { headers: { token: t.token } },
      );
      expect(res.status, version.document_type).toBe(200);
      const pdf = new Uint8Array(await res.arrayBuffer());
      const text = await readPdfText(pdf).then(
        (read) => read.text,
        (error: Error) => (found.push(`${version.document_type}: ${error.message}`), ''),
      );
      const words = new Set(text.match(/[A-Za-z_]+/g));
      for (const key of keysOf(version.content, new Set()))
        if (isCodeKey(key) && words.has(key)) found.push(`${version.document_type}: ${key}`);
    }
    expect(found).toEqual([]);
  });
});
