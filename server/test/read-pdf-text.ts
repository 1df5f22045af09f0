import { extractText, getDocumentProxy } from 'unpdf';
import { expect } from 'vitest';
import { forbiddenTextReport } from '#core/labels/forbidden-text.ts';

/**
 * The text of each page of a PDF, for tests that read an export back. Every PDF the server
 * makes is for people, so each read also checks that it shows words, never a code, record id,
 * ISO time or raw JSON (issue 30; core/labels/forbidden-text.ts).
 */
export async function readPdfText(pdf: Uint8Array): Promise<{ pages: number; text: string }> {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const { totalPages, text } = await extractText(document, { mergePages: true });
  expect(forbiddenTextReport('PDF', text)).toBe('');
  return { pages: totalPages, text };
}
