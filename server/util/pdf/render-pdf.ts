import { availableParallelism } from 'node:os';
import { mergePdfs, type PdfInfo } from './merge-pdf.ts';
import { runPdfTask, type RunningPdfTask } from './pdf-worker-pool.ts';

/**
 * What every page carries besides the content: the footer's text, then 'Page x of y' and
 * `footerRight` on its right; a header line when given (controlled documents,
 * server/modules/reports/controlled-pdf.ts).
 */
export interface PdfFrame {
  footer: string;
  footerRight?: string;
  header?: { left: string; right: string };
}

/** The page set-up every export shares: landscape A4, the document's metadata, fonts and styles. */
export function landscapePage(title: string, author: string, fontSize: number) {
  return {
    pageSize: 'A4',
    pageOrientation: 'landscape',
    pageMargins: [30, 30, 30, 36],
    info: { title, author, creator: 'Carryover' },
    defaultStyle: { fontSize },
    styles: {
      title: { fontSize: 16, bold: true, color: '#0b6e4f' },
      h2: { fontSize: 11, bold: true, margin: [0, 10, 0, 4] },
      th: { bold: true, fillColor: '#e8f0ec' },
    },
  };
}

// pdfmake lays out about 30 pages a second on one core; a part smaller than this (roughly
// 50 pages of tables) is not worth a worker of its own.
const PART_WEIGHT = 200_000;

// Past this weight (some 250 pages of tables) a document's layout on every core at once holds
// hundreds of MiB (the every-production limits report reached 1.5 GiB at 2,000 products): it is
// laid out and written a part of about STREAM_PART_WEIGHT at a time instead, in one worker.
const STREAM_WEIGHT = 1_000_000;
const STREAM_PART_WEIGHT = 200_000;

function renderPart(
  doc: Record<string, unknown>,
  frame: PdfFrame,
  numbering?: { shared: SharedArrayBuffer; counted(pages: number): void },
): RunningPdfTask {
  return runPdfTask(
    { kind: 'render', doc, frame, numbering: numbering?.shared },
    'PDF rendering failed',
    numbering?.counted,
  );
}

const startsPage = (node: unknown) =>
  typeof node === 'object' && node !== null && 'pageBreak' in node && node.pageBreak === 'before';

/**
 * The content cut where a top-level node starts a new page, into at most `maxParts` parts of
 * about the same size, none lighter than `minPartWeight` characters of JSON, in order. Each part
 * starts on its own first page, so its page break goes. A light part joins its neighbour: a
 * worker and a merge for the few pages after a long chapter (the signature and regeneration
 * pages of a report without chapters) cost more than they save.
 */
export function splitContent(
  content: unknown[],
  maxParts: number | ((weight: number) => number),
  minPartWeight = 0,
): unknown[][] {
  const sections: unknown[][] = [];
  for (const node of content) {
    if (sections.length === 0 || startsPage(node)) sections.push([node]);
    else sections[sections.length - 1]!.push(node);
  }
  const weights = sections.map((section) => JSON.stringify(section).length);
  const total = weights.reduce((a, b) => a + b, 0);
  const most = typeof maxParts === 'number' ? maxParts : maxParts(total);
  const count = Math.min(most, Math.floor(total / minPartWeight));
  const parts: { nodes: unknown[]; weight: number }[] = [];
  let weight = 0;
  sections.forEach((section, i) => {
    // A section goes to the next part when its middle lies past this part's share.
    const middle = weight + weights[i]! / 2;
    const last = parts.at(-1);
    if (!last || (middle > (total / count) * parts.length && parts.length < count))
      parts.push({ nodes: [...section], weight: weights[i]! });
    else {
      last.nodes.push(...section);
      last.weight += weights[i]!;
    }
    weight += weights[i]!;
  });
  const kept: typeof parts = [];
  for (const part of parts) {
    const last = kept.at(-1);
    if (last && (part.weight < minPartWeight || last.weight < minPartWeight)) {
      last.nodes.push(...part.nodes);
      last.weight += part.weight;
    } else kept.push(part);
  }
  return kept.map(({ nodes: [first, ...rest] }) => [
    startsPage(first) ? { ...(first as object), pageBreak: undefined } : first,
    ...rest,
  ]);
}

/**
 * A long document in parts on every core, then one file: each part numbers its pages within
 * the whole (pdf-worker-source.ts), so 'Page x of y' reads as if laid out in one pass.
 */
async function renderInParts(
  doc: Record<string, unknown>,
  frame: PdfFrame,
  contents: unknown[][],
): Promise<Buffer> {
  const shared = contents.map(() => new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  const counts: number[] = [];
  const release = (state: number) =>
    shared.forEach((buffer, i) => {
      const numbering = new Int32Array(buffer);
      numbering[1] = counts.slice(0, i).reduce((a, b) => a + b, 0);
      numbering[2] = counts.reduce((a, b) => a + b, 0);
      Atomics.store(numbering, 0, state);
      Atomics.notify(numbering, 0);
    });
  const parts = contents.map((content, i) =>
    renderPart({ ...doc, content }, frame, {
      shared: shared[i]!,
      counted(pages) {
        counts[i] = pages;
        if (contents.every((_, j) => counts[j] !== undefined)) release(1);
      },
    }),
  );
  try {
    const files = await Promise.all(parts.map((part) => part.done));
    return await mergePdfs(files, (doc.info ?? {}) as PdfInfo);
  } catch (error) {
    release(-1);
    await Promise.all(parts.map((part) => part.cancel()));
    throw error;
  }
}

/**
 * A long document a part at a time in one worker, into one file (pdf-worker-source.ts): memory
 * holds one part's layout, whatever the document's length. `streamPartWeight` is for tests.
 */
export function streamPdfDocument(
  doc: Record<string, unknown>,
  frame: PdfFrame,
  streamPartWeight = STREAM_PART_WEIGHT,
): Promise<Buffer> {
  const content = Array.isArray(doc.content) ? (doc.content as unknown[]) : [doc.content];
  const contents = splitContent(
    content,
    (weight) => Math.ceil(weight / streamPartWeight),
    streamPartWeight / 2,
  );
  return runPdfTask(
    { kind: 'stream', doc: { ...doc, content: undefined }, contents, frame },
    'PDF rendering failed',
  ).done;
}

/** Renders any pdfmake document off the main thread, with its frame on each page. */
export function renderPdfDocument(
  doc: Record<string, unknown>,
  frame: string | PdfFrame,
): Promise<Buffer> {
  const pageFrame = typeof frame === 'string' ? { footer: frame } : frame;
  const content = Array.isArray(doc.content) ? (doc.content as unknown[]) : [doc.content];
  let weight = 0;
  const contents = splitContent(
    content,
    (total) => ((weight = total), availableParallelism()),
    PART_WEIGHT,
  );
  if (weight > STREAM_WEIGHT) return streamPdfDocument(doc, pageFrame);
  if (contents.length < 2) return renderPart(doc, pageFrame).done;
  return renderInParts(doc, pageFrame, contents);
}
