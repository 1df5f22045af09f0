import { runPdfTask } from './pdf-worker-pool.ts';

export interface PdfInfo {
  title?: string;
  author?: string;
  creator?: string;
}

/**
 * One PDF of the parts' pages in order, with the document's title, author and creator. Copying
 * a few hundred pages takes about a second of CPU: off the main thread, like the layout.
 */
export function mergePdfs(parts: Uint8Array[], info: PdfInfo): Promise<Buffer> {
  return runPdfTask({ kind: 'merge', parts, info }, 'PDF merge failed').done;
}
