import { extractText, getDocumentProxy } from 'unpdf';
import { expect } from 'vitest';
import { forbiddenTextReport } from '#core/labels/forbidden-text.ts';

/**
 * The text of each page of a PDF, for tests that read an export back. The embedded Roboto maps
 * the micro sign (µ, U+00B5, as units are written) to the Greek mu's glyph, which the text comes
 * back as: it is read as the micro sign again. Every PDF the server makes is for people, so each
 * read also checks that it shows words, never a code, record id, ISO time or raw JSON (issue 30;
 * core/labels/forbidden-text.ts).
 */
export async function readPdfText(pdf: Uint8Array): Promise<{ pages: number; text: string }> {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const { totalPages, text } = await extractText(document, { mergePages: true });
  expect(forbiddenTextReport('PDF', text)).toBe('');
  return { pages: totalPages, text: text.replaceAll('\u03bc', '\u00b5') };
}
