import { extractText, getDocumentProxy } from 'unpdf';

/** The text of each page of a PDF, for tests that read an export back. */
export async function readPdfText(pdf: Uint8Array): Promise<{ pages: number; text: string }> {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const { totalPages, text } = await extractText(document, { mergePages: true });
  return { pages: totalPages, text };
}
