import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const PDF_LIB = require.resolve('pdf-lib');

// Copying a few hundred pages takes about a second of CPU: off the main thread, like the layout.
const MERGE_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { PDFDocument } = require(workerData.pdfLib);
(async () => {
  const whole = await PDFDocument.create({ updateMetadata: false });
  for (const bytes of workerData.parts) {
    const part = await PDFDocument.load(bytes, { updateMetadata: false });
    for (const page of await whole.copyPages(part, part.getPageIndices())) whole.addPage(page);
  }
  const info = workerData.info;
  if (info.title) whole.setTitle(info.title);
  if (info.author) whole.setAuthor(info.author);
  whole.setCreator(info.creator || 'Carryover');
  whole.setProducer('pdfmake, pdf-lib');
  whole.setCreationDate(new Date());
  return whole.save({ objectsPerTick: Infinity });
})().then(
  (bytes) => parentPort.postMessage(bytes),
  (error) => parentPort.postMessage({ error: String((error && error.stack) || error) }),
);
`;

export interface PdfInfo {
  title?: string;
  author?: string;
  creator?: string;
}

/** One PDF of the parts' pages in order, with the document's title, author and creator. */
export function mergePdfs(parts: Uint8Array[], info: PdfInfo): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(MERGE_WORKER_SOURCE, {
      eval: true,
      workerData: { pdfLib: PDF_LIB, parts, info },
    });
    worker.once('message', (message: Uint8Array | { error: string }) => {
      void worker.terminate();
      if (message instanceof Uint8Array) resolve(Buffer.from(message));
      else reject(new Error(`PDF merge failed: ${message.error}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`PDF merge worker exited with ${code}`));
    });
  });
}
