/**
 * The PDF worker: pdfmake lays a document out in one synchronous pass, so it runs in a worker
 * thread and the server keeps answering meanwhile. It is plain CommonJS given as source, so it
 * runs the same under tsx, Vitest and the bundled server. Fonts are the only local files it may
 * read, and it fetches nothing from the network.
 *
 * A worker stays up between documents (pdf-worker-pool.ts): it loads pdfmake once, then takes
 * one task at a time by message, `render` (a pdfmake document and its page frame), `stream` (a
 * long document whose parts it asks for one at a time, below) or `merge` (parts joined by
 * pdf-lib, loaded on the first merge), and answers with the file's bytes, `{ written }` (the
 * size and SHA-256 of the file it wrote) or `{ error }`.
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
const fs = require('node:fs');
const crypto = require('node:crypto');
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
  if (frame.header) doc.header = headerOf(frame);
  doc.footer = (page, pages) => {
    if (page === 1) placeInWhole(pages);
    return footerNode(frame, before + page, total);
  };
  return pdfmake.createPdf(doc).getBuffer();
}

function headerOf(frame) {
  if (!frame.header) return undefined;
  return () => ({
    columns: [
      { text: frame.header.left, fontSize: 7, bold: true },
      { text: frame.header.right, alignment: 'right', fontSize: 7 },
    ],
    margin: [30, 12, 30, 0],
  });
}

function footerNode(frame, page, total) {
  return {
    columns: [
      { text: frame.footer, fontSize: 7, color: '#555555' },
      {
        text: 'Page ' + page + ' of ' + total + (frame.footerRight ? ' · ' + frame.footerRight : ''),
        alignment: 'right',
        fontSize: 7,
      },
    ],
    margin: [30, 8, 30, 0],
  };
}

const SVGMeasure = require(workerData.pdfmakeSvgMeasure).default;
const { tableLayouts } = require(workerData.pdfmakeTableLayouts);
const PageSize = require(workerData.pdfmakePageSize);

// While a long document is streamed, each page pdfkit starts gets a second content stream, its
// footer and watermark, drawn once the total is known (in the order of a one-pass layout); the page's resources stay open until then, so the
// footer's font joins them. The page itself and its content are written and let go at once.
let deferring = null;
const renderPages = Renderer.prototype.renderPages;
Renderer.prototype.renderPages = function (pages) {
  const kit = this.pdfDocument;
  if (deferring && !kit._deferred) {
    kit._deferred = deferring;
    const addPage = kit.addPage;
    kit.addPage = function (options) {
      const result = addPage.call(this, options);
      const page = this.page;
      const footer = this.ref();
      page.dictionary.data.Contents = [page.content, footer];
      page.end = function () {
        this._setTabOrder();
        this.dictionary.end();
        return this.content.end();
      };
      kit._deferred.push({ page, footer });
      return result;
    };
  }
  return renderPages.call(this, pages);
};

// pdfkit keeps the glyphs and positions of every word each font has laid out (EmbeddedFont's
// layoutCache), for the life of the document: a report of thousands of pages, its numbers mostly
// different words, kept tens of MiB of them. Between parts the cache starts again: the same
// glyphs at the same places, a word shared by two parts laid out once in each.
function forgetWordLayouts(kit) {
  for (const font of Object.values(kit._fontFamilies))
    if (font.layoutCache) font.layoutCache = Object.create(null);
}

// Footers are laid out this many pages at a time: a page of footer is a few kilobytes.
const FOOTER_PAGES = 200;

/**
 * Where a streamed document's bytes go: into one buffer answered to the parent, or, given a path (out),
 * into that file, hashed on the way (a report stored a piece at a time, never held whole).
 */
function sinkOf(out) {
  if (!out) {
    const chunks = [];
    return { write: (bytes) => chunks.push(bytes), end: () => Buffer.concat(chunks) };
  }
  const fd = fs.openSync(out, 'w');
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  return {
    write(chunk) {
      fs.writeSync(fd, chunk);
      hash.update(chunk);
      bytes += chunk.length;
    },
    end() {
      fs.closeSync(fd);
      return { written: { bytes, sha256: hash.digest('hex') } };
    },
  };
}

/**
 * A long document a part at a time into one file (render-pdf.ts): each part is asked of the
 * parent on its port only when the layout reaches it, laid out and written, and let go before
 * the next; memory on either side holds one part, not the document. "Page x of y" and the
 * watermark are drawn last, on each page's own second stream, when y is known: the same footer,
 * in the same place, as a document laid out in one pass.
 */
async function stream({ doc, frame, port, out }) {
  const next = () =>
    new Promise((resolve, reject) => {
      port.once('message', (part) =>
        part && part.failed ? reject(new Error('the content of a part could not be built')) : resolve(part),
      );
      port.postMessage('next');
    });
  try {
    return await streamParts(doc, frame, next, sinkOf(out));
  } finally {
    port.close();
  }
}

async function streamParts(doc, frame, next, sink) {
  const deferred = [];
  const header = headerOf(frame);
  let first = await next();
  deferring = deferred;
  let kit;
  try {
    kit = await pdfmake.createPdf({ ...doc, header, watermark: undefined, content: first })
      .getStream();
  } finally {
    deferring = null;
  }
  first = null;
  // pdfkit writes the file as many small buffers, each a slice of a shared 8 KiB slab that
  // holds it alive with the page operators written beside it (118 MB kept for a 5 MB file):
  // they are copied out into one buffer per 256 KiB.
  let pending = [];
  let pendingBytes = 0;
  const keep = () => {
    if (pending.length) sink.write(Buffer.concat(pending));
    pending = [];
    pendingBytes = 0;
  };
  kit.on('data', (chunk) => {
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= 262144) keep();
  });
  const ended = new Promise((resolve, reject) => {
    kit.on('end', resolve);
    kit.on('error', reject);
  });
  const pageSize = PageSize.normalizePageSize(doc.pageSize, doc.pageOrientation);
  const margins = PageSize.normalizePageMargin(doc.pageMargins);
  const layout = (content, footer, watermark) => {
    const builder = new LayoutBuilder(pageSize, margins, new SVGMeasure());
    builder.registerTableLayouts(tableLayouts);
    const style = doc.defaultStyle || { fontSize: 12, font: 'Roboto' };
    return builder.layoutDocument(content, kit, doc.styles || {}, style, undefined,
      footer ? undefined : header, footer, watermark);
  };
  for (let part = await next(); part; part = await next()) {
    new Renderer(kit).renderPages(layout(part));
    forgetWordLayouts(kit);
    // The file's bytes flow out (and are compacted) between parts, not all at the end.
    await new Promise((resolve) => setImmediate(resolve));
  }
  kit.flushPages();
  const total = deferred.length;
  const addPage = kit.addPage;
  for (let start = 0; start < total; start += FOOTER_PAGES) {
    const batch = deferred.slice(start, start + FOOTER_PAGES);
    const blank = batch.map((_, i) => ({ stack: [], pageBreak: i ? 'before' : undefined }));
    const pages = layout(blank, (page) => footerNode(frame, start + page, total), doc.watermark);
    if (pages.length !== batch.length) throw new Error('footers laid out on the wrong pages');
    let taken = 0;
    kit.addPage = function () {
      const { page, footer } = batch[taken++];
      page.content = footer;
      this.page = page;
      return this;
    };
    try {
      new Renderer(kit).renderPages(pages);
    } finally {
      kit.addPage = addPage;
    }
    for (const { page, footer } of batch) {
      footer.end();
      page.resources.data.ColorSpace = page.resources.data.ColorSpace || {};
      for (const color of Object.values(kit.spotColors)) page.resources.data.ColorSpace[color.id] = color;
      page.resources.end();
    }
    // As between parts: a batch's bytes flow out before the next, not all at the end.
    await new Promise((resolve) => setImmediate(resolve));
  }
  deferred.length = 0;
  kit.end();
  await ended;
  keep();
  return sink.end();
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
    .then(() => (task.kind === 'merge' ? merge(task) : task.kind === 'stream' ? stream(task) : render(task)))
    .then(
      (answer) => parentPort.postMessage(answer),
      (error) => parentPort.postMessage({ error: String((error && error.stack) || error) }),
    );
});
`;
