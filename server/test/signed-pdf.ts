import { expect } from 'vitest';
import { readPdfText } from './read-pdf-text.ts';

/** The text of a controlled record's signed PDF (GET signatures/pdf), whitespace flattened. */
export async function signedPdfText(
  server: { url: string },
  F: string,
  token: string,
  documentType: string,
  documentId: number,
): Promise<string> {
  const res = await fetch(
    `${server.url}${F}/signatures/pdf?documentType=${documentType}&documentId=${documentId}`,
    { headers: { token } },
  );
  expect(res.status).toBe(200);
  const { text } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
  return text.replace(/\s+/g, ' ');
}
