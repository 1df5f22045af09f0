import { extractText, getDocumentProxy } from 'unpdf';

/**
 * The text of each page of a PDF, for tests that read an export back. The embedded Roboto maps
 * the micro sign (µ, U+00B5, as units are written) to the Greek mu's glyph, which the text comes
 * back as: it is read as the micro sign again.
 */
export async function readPdfText(pdf: Uint8Array): Promise<{ pages: number; text: string }> {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const { totalPages, text } = await extractText(document, { mergePages: true });
  return { pages: totalPages, text: text.replaceAll('\u03bc', '\u00b5') };
}
