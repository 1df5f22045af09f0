/**
 * The PDF worker: pdfmake lays a document out in one synchronous pass, so it runs in a worker
 * thread and the server keeps answering meanwhile. It is plain CommonJS given as source, so it
 * runs the same under tsx, Vitest and the bundled server. Fonts are the only local files it may
 * read, and it fetches nothing from the network.
 *
 * A worker stays up between documents (pdf-worker-pool.ts): it loads pdfmake once, then takes
 * one task at a time by message, `render` (a pdfmake document and its page frame) or `merge`
 * (parts joined by pdf-lib, loaded on the first merge), and answers with the file's bytes or
 * `{ error }`.
 *
 * pdfmake writes each word as its own text object (its Renderer.renderLine says so in a TODO);
 * on a page of tables that is most of the writing time and half the file. The worker joins the
 * words of a line that pdfmake placed edge to edge in the same font, size, colour and opacity,
 * with no decoration or link, into one run: the same glyphs at the same places, and the same text
 * to a reader or an extractor. Justified words have gaps between them and stay apart.
 *
 * pdfmake's buildNextLine copies all the words of a paragraph that are not yet placed
 * (_inlines.slice(1)) before placing each word, to look ahead at the words that must stay on
 * its line: quadratic in the paragraph's words. The regeneration page's parameters of an annual
 * summary with 50 custom sections are one cell of some 50,000 words, which took 15 s to lay out.
 * The worker gives each paragraph's words a slice that copies only what that look-ahead reads.
 *
 * A part of a larger document (render-pdf.ts) numbers its pages within the whole: once its own
 * layout is done it posts its page count and waits, on shared memory, for its first page number
 * and the total, which the parent knows only when every part has counted its pages.
 */
export const PDF_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const pdfmake = require(workerData.pdfmake);
pdfmake.setFonts(require(workerData.fonts));
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => path.startsWith(workerData.fontDir));

const LayoutBuilder = require(workerData.pdfmakeLayoutBuilder).default;
const buildNextLine = LayoutBuilder.prototype.buildNextLine;
// Only the words tied to the first one (noNewLine) and the word after them are ever read.
function lookahead(start, end) {
  if (start !== 1 || end !== undefined) return Array.prototype.slice.call(this, start, end);
  let last = 1;
  while (last < this.length && this[last - 1].noNewLine) last++;
  return Array.prototype.slice.call(this, 1, last);
}
LayoutBuilder.prototype.buildNextLine = function (textNode) {
  const inlines = textNode._inlines;
  if (inlines && inlines.slice !== lookahead)
    Object.defineProperty(inlines, 'slice', { value: lookahead, configurable: true });
  return buildNextLine.call(this, textNode);
};

const Renderer = require(workerData.pdfmakeRenderer).default;
const renderLine = Renderer.prototype.renderLine;
const SAME = ['font', 'fontSize', 'color', 'opacity', 'characterSpacing', 'fontFeatures', 'sup', 'sub'];
const plain = (inline) =>
  !inline.decoration && !inline.background && !inline.link && !inline.linkToPage &&
  !inline.linkToDestination && !inline._pageNodeRef;
Renderer.prototype.renderLine = function (line, x, y) {
  if (line.inlines.length < 2 || line.id || line._pageNodeRef || line._outline)
    return renderLine.call(this, line, x, y);
  const runs = [];
  for (const inline of line.inlines) {
    const last = runs[runs.length - 1];
    if (
      last && plain(last) && plain(inline) && Math.abs(inline.x - last.x - last.width) < 1e-6 &&
      SAME.every((key) => last[key] === inline[key])
    )
      runs[runs.length - 1] = { ...last, text: last.text + inline.text, width: inline.x + inline.width - last.x };
    else runs.push(inline);
  }
  const joined = line.clone();
  joined.inlines = runs;
  return renderLine.call(this, joined, x, y);
};

function render({ doc, frame, numbering: shared }) {
  const numbering = shared ? new Int32Array(shared) : null;
  let before = 0;
  let total = 0;
  function placeInWhole(pages) {
    if (!numbering) {
      total = pages;
      return;
    }
    if (Atomics.load(numbering, 0) === 0) {
      parentPort.postMessage({ pages });
      Atomics.wait(numbering, 0, 0);
    }
    if (Atomics.load(numbering, 0) < 0) throw new Error('another part of the document failed');
    before = numbering[1];
    total = numbering[2];
  }
  if (frame.header) {
    doc.header = () => ({
      columns: [
        { text: frame.header.left, fontSize: 7, bold: true },
        { text: frame.header.right, alignment: 'right', fontSize: 7 },
      ],
      margin: [30, 12, 30, 0],
    });
  }
  doc.footer = (page, pages) => {
    if (page === 1) placeInWhole(pages);
    return {
      columns: [
        { text: frame.footer, fontSize: 7, color: '#555555' },
        {
          text: 'Page ' + (before + page) + ' of ' + total + (frame.footerRight ? ' · ' + frame.footerRight : ''),
          alignment: 'right',
          fontSize: 7,
        },
      ],
      margin: [30, 8, 30, 0],
    };
  };
  return pdfmake.createPdf(doc).getBuffer();
}

let pdfLib = null;
async function merge({ parts, info }) {
  pdfLib = pdfLib || require(workerData.pdfLib);
  const whole = await pdfLib.PDFDocument.create({ updateMetadata: false });
  for (const bytes of parts) {
    const part = await pdfLib.PDFDocument.load(bytes, { updateMetadata: false });
    for (const page of await whole.copyPages(part, part.getPageIndices())) whole.addPage(page);
  }
  if (info.title) whole.setTitle(info.title);
  if (info.author) whole.setAuthor(info.author);
  whole.setCreator(info.creator || 'Carryover');
  whole.setProducer('pdfmake, pdf-lib');
  whole.setCreationDate(new Date());
  return whole.save({ objectsPerTick: Infinity });
}

parentPort.on('message', (task) => {
  Promise.resolve()
    .then(() => (task.kind === 'merge' ? merge(task) : render(task)))
    .then(
      (bytes) => parentPort.postMessage(bytes),
      (error) => parentPort.postMessage({ error: String((error && error.stack) || error) }),
    );
});
`;
