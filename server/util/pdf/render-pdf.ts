import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { mergePdfs, type PdfInfo } from './merge-pdf.ts';
import { runPdfTask, type RunningPdfTask, type WrittenPdf } from './pdf-worker-pool.ts';

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

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
// laid out and written a part of about STREAM_PART_WEIGHT at a time instead, in one worker. A
// part's layout is most of the worker's heap: parts of 50,000 rather than 200,000 (some 12
// pages of tables) took it from 145 to 115 MiB at most over the every-production report at
// 5,000 products (3,524 pages), for the same CPU and the same file.
const STREAM_WEIGHT = 1_000_000;
const STREAM_PART_WEIGHT = 50_000;

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

/** A top-level section of content (from one node that starts a page to the next) and its weight. */
interface Section {
  nodes: unknown[];
  weight: number;
}

/** The content's sections, read from its parts as they are built, one section ahead at most. */
function* sectionsOf(parts: Iterable<unknown[]>): Generator<Section> {
  let nodes: unknown[] = [];
  const section = () => ({ nodes, weight: JSON.stringify(nodes).length });
  for (const part of parts)
    for (const node of part) {
      if (nodes.length > 0 && startsPage(node)) {
        yield section();
        nodes = [];
      }
      nodes.push(node);
    }
  if (nodes.length > 0) yield section();
}

/**
 * Sections joined into parts of at least `partWeight` (the last may be lighter), each laid out
 * from its own first page, so its page break goes.
 */
function* partsOfWeight(sections: Iterable<Section>, partWeight: number): Generator<unknown[]> {
  let part: unknown[] = [];
  let weight = 0;
  const cut = () => {
    const [first, ...rest] = part;
    return [startsPage(first) ? { ...(first as object), pageBreak: undefined } : first, ...rest];
  };
  for (const section of sections) {
    if (part.length > 0 && weight >= partWeight) {
      yield cut();
      part = [];
      weight = 0;
    }
    part.push(...section.nodes);
    weight += section.weight;
  }
  if (part.length > 0) yield cut();
}

/**
 * The parts given to the worker one at a time, as it asks for each (pdf-worker-source.ts): a
 * part is built only then, so the parent holds one part, never the whole content. A part that
 * fails to build fails the task with its own error.
 */
function streamTask<T>(
  doc: Record<string, unknown>,
  frame: PdfFrame,
  parts: Iterator<unknown[]>,
  out?: string,
): Promise<T> {
  const { port1, port2 } = new MessageChannel();
  let failed: unknown;
  port1.on('message', () => {
    let part: unknown[] | null = null;
    try {
      const next = parts.next();
      if (!next.done) part = next.value;
    } catch (error) {
      failed = error;
    }
    port1.postMessage(failed === undefined ? part : { failed: true });
  });
  const task = runPdfTask<T>(
    {
      kind: 'stream',
      doc: { ...doc, content: undefined },
      frame,
      port: port2,
      ...(out ? { out } : {}),
    },
    'PDF rendering failed',
  );
  return task.done
    .then(
      (value) => value,
      (error: unknown) => {
        throw failed ?? error;
      },
    )
    .finally(() => port1.close());
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
  const parts = partsOfWeight(sectionsOf([content]), streamPartWeight);
  return streamTask<Buffer>(doc, frame, parts);
}

/** A PDF written to a file of its own, with its size and SHA-256 (renderPdfFile). */
export interface PdfFile extends WrittenPdf {
  path: string;
  /** Deletes the file and its folder. */
  remove(): Promise<void>;
}

/**
 * A document whose content comes as parts built one at a time (a report of every production),
 * written to a file: a short one as renderPdfDocument lays it out, a long one (past
 * STREAM_WEIGHT) streamed, each part built only when its layout starts. Neither the content
 * nor the file is ever held whole in this thread (issue 34: memory < 512 MiB at 5,000 products).
 * `weights` is for tests.
 */
export async function renderPdfFile(
  doc: Record<string, unknown>,
  frame: PdfFrame,
  content: Iterable<unknown[]>,
  weights = { stream: STREAM_WEIGHT, part: STREAM_PART_WEIGHT },
): Promise<PdfFile> {
  const dir = await mkdtemp(join(tmpdir(), 'carryover-pdf-'));
  const path = join(dir, 'file.pdf');
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    const sections = sectionsOf(content);
    const head: Section[] = [];
    let weight = 0;
    let rest = sections.next();
    for (; !rest.done && weight <= weights.stream; rest = sections.next()) {
      head.push(rest.value);
      weight += rest.value.weight;
    }
    if (rest.done) {
      const bytes = await renderPdfDocument(
        { ...doc, content: head.flatMap((s) => s.nodes) },
        frame,
      );
      await writeFile(path, bytes);
      return { path, bytes: bytes.length, sha256: sha256Of(bytes), remove };
    }
    const first = rest.value;
    function* all() {
      yield* head.splice(0);
      yield first;
      yield* sections;
    }
    const written = await streamTask<WrittenPdf>(
      doc,
      frame,
      partsOfWeight(all(), weights.part),
      path,
    );
    return { path, ...written, remove };
  } catch (error) {
    await remove();
    throw error;
  }
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
