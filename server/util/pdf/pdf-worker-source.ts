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
 * pdfmake lays a paragraph out by taking its words one at a time from the front of an array
 * (_inlines.shift()), and before each it copies all the words still to place (_inlines.slice(1))
 * to look ahead at those that must stay on its line: quadratic in the paragraph's words, and a
 * shift from an array of more than some 10,000 items moves all of them. The regeneration page's
 * parameters of an annual summary with 50 custom sections are one cell of some 50,000 words,
 * which took 15 s to lay out. The worker hands a long paragraph's words to pdfmake a window at a
 * time, and gives the window a slice that copies only what the look-ahead reads.
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
// Far more words than a line holds: a line ends only where a word does not fit or at the end.
const WINDOW = 2048;
const waiting = new WeakMap();
LayoutBuilder.prototype.buildNextLine = function (textNode) {
  let inlines = textNode._inlines;
  if (!inlines) return buildNextLine.call(this, textNode);
  let rest = waiting.get(textNode);
  if (!rest && inlines.length > 2 * WINDOW) {
    rest = { inlines, next: WINDOW };
    waiting.set(textNode, rest);
    inlines = textNode._inlines = inlines.slice(0, WINDOW);
  }
  if (rest && inlines.length < WINDOW) {
    const end = Math.min(rest.next + WINDOW, rest.inlines.length);
    for (let i = rest.next; i < end; i++) inlines.push(rest.inlines[i]);
    rest.next = end;
  }
  if (inlines.slice !== lookahead)
    Object.defineProperty(inlines, 'slice', { value: lookahead, configurable: true });
  const line = buildNextLine.call(this, textNode);
  if (line && rest && rest.next < rest.inlines.length) line.lastLineInParagraph = false;
  return line;
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
