import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { idlePdfWorkers } from './pdf-worker-pool.ts';
import {
  landscapePage,
  renderPdfDocument,
  renderPdfFile,
  splitContent,
  streamPdfDocument,
} from './render-pdf.ts';

// A chapter: a heading on a new page, then a table long enough to run over several pages.
function chapter(n: number) {
  return [
    { text: `Chapter ${n}`, style: 'h2', pageBreak: n === 1 ? undefined : 'before' },
    {
      table: {
        headerRows: 1,
        widths: ['*', '*', '*'],
        body: [
          ['Row', 'Text', 'Value'],
          ...Array.from({ length: 200 }, (_, i) => [
            `${n}.${i}`,
            `A line of text long enough to weigh something in the split ${'x'.repeat(300)}`,
            String(i * n),
          ]),
        ],
      },
    },
  ];
}

describe('splitContent', () => {
  it('cuts only where a top-level node starts a page, in order, and drops the first break', () => {
    const content = [1, 2, 3, 4].flatMap(chapter);
    const parts = splitContent(content, 2);
    expect(parts).toHaveLength(2);
    expect(parts.flat()).toHaveLength(content.length);
    expect(parts[0]![0]).toEqual(content[0]);
    expect((parts[1]![0] as { text: string; pageBreak?: string }).text).toBe('Chapter 3');
    expect((parts[1]![0] as { pageBreak?: string }).pageBreak).toBeUndefined();
  });

  it('keeps the few pages after a long chapter with it', () => {
    const content = [...chapter(1), { text: 'Signatures', pageBreak: 'before' }];
    const weight = JSON.stringify(chapter(1)).length;
    expect(splitContent(content, 2, weight / 2)).toHaveLength(1);
    expect(splitContent([...content, ...chapter(2)], 2, weight / 2)).toHaveLength(2);
  });

  it('keeps a document without page breaks whole', () => {
    expect(splitContent(chapter(1), 4)).toHaveLength(1);
  });
});

async function textOf(pdf: Buffer) {
  return (await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true }))
    .text;
}

const short = (n: number) => ({
  ...landscapePage(`Note ${n}`, 'Tester', 8),
  content: [`Note ${n}`],
});

describe('renderPdfDocument', () => {
  it('keeps its worker for the next document', async () => {
    // The pool is the process's: an earlier file of this test worker may have left workers idle.
    const idle = Math.max(idlePdfWorkers(), 1);
    expect(await textOf(await renderPdfDocument(short(1), 'Carryover · test'))).toContain('Note 1');
    expect(idlePdfWorkers()).toBe(idle);
    // The second document takes an idle worker and gives it back: none more is started.
    expect(await textOf(await renderPdfDocument(short(2), 'Carryover · test'))).toContain('Note 2');
    expect(idlePdfWorkers()).toBe(idle);
  }, 60_000);

  it('writes the words of a line as one run, and justified words apart', async () => {
    // Text runs (TJ) of a page drawn without compression, beyond those of the footer.
    const runs = async (content: unknown[]) => {
      const doc = { ...landscapePage('Runs', 'Tester', 8), compress: false, content };
      const pdf = (await renderPdfDocument(doc, 'Carryover · test')).toString('latin1');
      return (pdf.match(/\] TJ/g) ?? []).length;
    };
    const footer = await runs([]);
    const words = 'Cleaning validation of shared equipment by swab and rinse sampling';
    expect(await runs([words])).toBe(footer + 1);
    // A change of font starts a new run.
    expect(await runs([{ text: ['Bold ', { text: 'word', bold: true }, ' here'] }])).toBe(
      footer + 3,
    );
    // The justified first line keeps its dozens of words apart; the last line is one run.
    const paragraph = { text: Array(5).fill(words).join(' '), alignment: 'justify' };
    expect(await runs([paragraph])).toBeGreaterThan(footer + 20);
    const text = (
      await extractText(
        await getDocumentProxy(
          new Uint8Array(
            await renderPdfDocument(
              { ...landscapePage('Runs', 'Tester', 8), content: [words] },
              'x',
            ),
          ),
        ),
        { mergePages: true },
      )
    ).text;
    expect(text).toContain(words);
  }, 60_000);

  it('keeps words written without a space between them on one line, in a long paragraph too', async () => {
    // A word in two styles ends some paragraphs' first line: pdfmake moves both halves together.
    const filler = (k: number) => Array.from({ length: k }, (_, i) => `word${i}`).join(' ');
    const tied = Array.from({ length: 60 }, (_, k) => ({
      text: [`${filler(k)} Swab`, { text: 'bed', bold: true }, ` end ${k}.`],
    }));
    // One paragraph of 40,000 words, as a report's parameters with many custom sections are.
    const long = { text: filler(40_000) };
    const doc = { ...landscapePage('Tied', 'Tester', 8), content: [...tied, long] };
    const pages = (
      await extractText(
        await getDocumentProxy(new Uint8Array(await renderPdfDocument(doc, 'Carryover · test'))),
        { mergePages: false },
      )
    ).text;
    const text = pages.join('\n');
    expect(text.match(/Swabbed/g)).toHaveLength(60);
    expect(text).toContain('word39998 word39999');
  }, 120_000);

  it('numbers the pages of a document rendered in parts as one document', async () => {
    const content = [1, 2, 3, 4, 5, 6].flatMap(chapter);
    const pdf = await renderPdfDocument(
      { ...landscapePage('Long document', 'Tester', 8), content },
      { footer: 'Carryover · test', header: { left: 'Facility', right: 'DOC-1' } },
    );
    const document = await getDocumentProxy(new Uint8Array(pdf));
    const { totalPages, text } = await extractText(document, { mergePages: false });
    expect(totalPages).toBeGreaterThan(12);
    text.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${totalPages}`);
      expect(page).toContain('DOC-1');
    });
    const chapters = text.flatMap((page) => page.match(/Chapter \d/g) ?? []);
    expect(chapters).toEqual([
      'Chapter 1',
      'Chapter 2',
      'Chapter 3',
      'Chapter 4',
      'Chapter 5',
      'Chapter 6',
    ]);
    const info = await document.getMetadata();
    expect((info.info as { Title?: string }).Title).toBe('Long document');
    // Rendered in parts and joined, not in one pass.
    expect((info.info as { Producer?: string }).Producer).toContain('pdf-lib');
  }, 120_000);

  it('numbers the pages of a document streamed a part at a time as one document', async () => {
    // Parts of about one chapter each: every chapter after the first starts a part.
    const content = [1, 2, 3, 4, 5, 6].flatMap(chapter);
    const doc = { ...landscapePage('Streamed document', 'Tester', 8), content };
    const frame = { footer: 'Carryover · test', header: { left: 'Facility', right: 'DOC-2' } };
    const pagesOf = async (pdf: Buffer) =>
      (await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: false })).text;
    const weight = JSON.stringify(chapter(2)).length;
    expect(splitContent(content, (total) => Math.ceil(total / weight), weight / 2)).toHaveLength(6);
    const streamed = await pagesOf(await streamPdfDocument(doc, frame, weight));
    const total = streamed.length;
    expect(total).toBeGreaterThan(12);
    streamed.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${total}`);
      expect(page).toContain('DOC-2');
    });
    // Each chapter starts where it starts when the document is laid out in one pass, and every
    // page reads the same: the part boundaries show nowhere.
    const whole = await pagesOf(await renderPdfDocument(doc, frame));
    expect(streamed).toEqual(whole);
    const starts = streamed.flatMap((page, i) => (/Chapter \d/.test(page) ? [i] : []));
    expect(starts).toHaveLength(6);
    for (const [n, i] of starts.entries()) {
      expect(streamed[i]).toContain(`Chapter ${n + 1}`);
      // The last page of the part before a boundary and the first page after it.
      if (i > 0) expect(streamed[i - 1]).toContain(`Page ${i} of ${total}`);
      expect(streamed[i]).toContain(`Page ${i + 1} of ${total}`);
    }
  }, 120_000);

  it('fails as a whole, without waiting forever, when one part cannot be drawn', async () => {
    const content = [1, 2, 3, 4, 5, 6].flatMap(chapter);
    content.push({ image: 'no-such-image.png', width: 20 } as never);
    await expect(
      renderPdfDocument({ ...landscapePage('Broken', 'Tester', 8), content }, 'Carryover · test'),
    ).rejects.toThrow(/PDF rendering failed/);
    // The workers that answered with the error draw the next document.
    expect(await textOf(await renderPdfDocument(short(3), 'Carryover · test'))).toContain('Note 3');
  }, 120_000);

  it('writes a document whose parts are built one at a time to a file, as one pass lays it out', async () => {
    const doc = landscapePage('Parts', 'Tester', 8);
    const frame = { footer: 'Carryover · test', header: { left: 'Facility', right: 'DOC-3' } };
    const weight = JSON.stringify(chapter(2)).length;
    let built = 0;
    function* chapters() {
      for (let n = 1; n <= 6; n++) {
        built++;
        yield chapter(n);
      }
    }
    const pagesOf = async (pdf: Uint8Array) =>
      (await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: false })).text;
    const file = await renderPdfFile(doc, frame, chapters(), { stream: weight, part: weight });
    try {
      expect(built).toBe(6);
      const bytes = await readFile(file.path);
      expect(file.bytes).toBe(bytes.length);
      expect(file.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      const whole = [1, 2, 3, 4, 5, 6].flatMap(chapter);
      expect(await pagesOf(bytes)).toEqual(
        await pagesOf(await renderPdfDocument({ ...doc, content: whole }, frame)),
      );
    } finally {
      await file.remove();
    }
    expect(existsSync(file.path)).toBe(false);
  }, 120_000);

  it('fails with the error of a part that cannot be built', async () => {
    const weight = JSON.stringify(chapter(2)).length;
    function* chapters() {
      yield chapter(1);
      yield chapter(2);
      yield chapter(3);
      throw new Error('no such production');
    }
    await expect(
      renderPdfFile(landscapePage('Parts', 'Tester', 8), { footer: 'test' }, chapters(), {
        stream: weight,
        part: weight,
      }),
    ).rejects.toThrow('no such production');
    expect(await textOf(await renderPdfDocument(short(4), 'Carryover · test'))).toContain('Note 4');
  }, 120_000);
});
