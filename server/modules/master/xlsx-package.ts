import type JSZip from 'jszip';
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import type { SaxesParser, SaxesTagPlain } from 'saxes';

/**
 * The parts of an .xlsx package an import needs, read with a streaming XML parser: exceljs
 * builds a model of every cell, style and formula, and on a 10,000-row workbook that model's
 * garbage held the import's peak memory over its limit.
 */

/** What the parts of a workbook may hold once inflated: 10,000 rows take about 2.4 MB. */
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;
/**
 * Rows a workbook may hold across its sheets. A site's master data is thousands of rows; every
 * row read is kept until the import is planned (about 400 bytes each), so a workbook of short
 * rows under the size cap (1.6 million) took 800 MiB. Counted while reading, so the refusal
 * comes before the memory is spent.
 */
export const MAX_ROWS = 100_000;

/** Why a workbook cannot be read: not an xlsx package, or larger than the cap once unzipped. */
export class UnreadableWorkbook extends Error {
  constructor(readonly reason: 'format' | 'size' | 'rows') {
    super(`unreadable workbook: ${reason}`);
  }
}

type Relations = Map<string, { target: string; type: string }>;

interface XmlHandlers {
  open?(tag: SaxesTagPlain): void;
  text?(text: string): void;
  close?(name: string): void;
}

/** The local name of an element or attribute, without its namespace prefix. */
export function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return colon < 0 ? qualified : qualified.slice(colon + 1);
}

/** An attribute by local name, whatever prefix the writer chose. */
export function attribute(tag: SaxesTagPlain, name: string): string | undefined {
  const { attributes } = tag;
  if (name in attributes) return attributes[name];
  // Only a prefixed name can match otherwise: a cell asked for the type it lacks (a number) is
  // answered without a list of its attributes (10,000 rows × 20 cells an import).
  for (const key in attributes)
    if (key.length > name.length && key.endsWith(name) && key[key.length - name.length - 1] === ':')
      return attributes[key];
  return undefined;
}

export class XlsxPackage {
  private inflated = 0;

  private constructor(
    private readonly zip: JSZip,
    private readonly parser: typeof SaxesParser,
    private readonly maxInflated: number,
  ) {}

  /** Opens the zip; throws when the bytes are not one. */
  static async open(buffer: Buffer, maxInflated = MAX_INFLATED_BYTES): Promise<XlsxPackage> {
    const [{ default: JSZipClass }, { SaxesParser }] = await Promise.all([
      import('jszip'),
      import('saxes'),
    ]);
    const zip = await JSZipClass.loadAsync(buffer).catch(() => {
      throw new UnreadableWorkbook('format');
    });
    return new XlsxPackage(zip, SaxesParser, maxInflated);
  }

  /**
   * Streams one XML part through the handlers. A missing part, bad deflate data or malformed XML
   * is an UnreadableWorkbook; an error of a handler is not, so a bug is never taken for bad input.
   */
  async readXml(path: string, handlers: XmlHandlers): Promise<void> {
    const entry = this.zip.file(path);
    if (!entry) throw new UnreadableWorkbook('format');
    const parser = new this.parser();
    // A handler's own error is kept apart from the parser's, so a bug is never taken for bad input.
    let failed: { error: unknown } | undefined;
    const guarded =
      <A>(handler: (arg: A) => void) =>
      (arg: A) => {
        try {
          handler(arg);
        } catch (error) {
          failed = { error };
          throw error;
        }
      };
    const { open, text, close } = handlers;
    if (open) parser.on('opentag', guarded(open));
    if (text) {
      parser.on('text', guarded(text));
      parser.on('cdata', guarded(text));
    }
    if (close)
      parser.on(
        'closetag',
        guarded((tag: SaxesTagPlain) => close(tag.name)),
      );
    const write = (xml: string, end = false) => {
      try {
        parser.write(xml);
        if (end) parser.close();
      } catch {
        throw failed ? failed.error : new UnreadableWorkbook('format');
      }
    };
    // Parsed as it is inflated: a sheet's XML never sits on the heap as one string (a large
    // string goes straight to the old generation and stays there, garbage, until a full
    // collection), and a zip bomb stops at the cap instead of filling memory.
    const decoder = new TextDecoder();
    const chunks = inflated(entry)[Symbol.asyncIterator]();
    for (;;) {
      const next = await chunks.next().catch(() => {
        throw new UnreadableWorkbook('format');
      });
      if (next.done) break;
      const bytes = next.value as Buffer;
      this.inflated += bytes.length;
      if (this.inflated > this.maxInflated) {
        await chunks.return?.();
        throw new UnreadableWorkbook('size');
      }
      write(decoder.decode(bytes, { stream: true }));
    }
    write(decoder.decode(), true);
  }

  /** A part's relationships: id → target path within the package, and type. */
  async relationships(part: string): Promise<Relations> {
    const slash = part.lastIndexOf('/');
    const dir = part.slice(0, slash + 1);
    const relsPath = `${dir}_rels/${part.slice(slash + 1)}.rels`;
    const rels: Relations = new Map();
    if (!this.zip.file(relsPath)) return rels;
    await this.readXml(relsPath, {
      open(tag) {
        if (localName(tag.name) !== 'Relationship') return;
        const id = attribute(tag, 'Id');
        const target = attribute(tag, 'Target');
        if (!id || !target || attribute(tag, 'TargetMode') === 'External') return;
        rels.set(id, { target: resolvePath(dir, target), type: attribute(tag, 'Type') ?? '' });
      },
    });
    return rels;
  }
}

/** What jszip keeps of an entry it loaded: the bytes as stored, and how they were compressed. */
interface LoadedEntry {
  _data?: { compression?: { magic?: string }; compressedContent?: unknown };
}

/** The compression method of a deflated zip entry, as jszip names it. */
const DEFLATE = '\x08\x00';

/**
 * An entry's bytes as they inflate. A deflated entry is inflated by Node's zlib: jszip inflates in
 * JavaScript (pako), which cost a cold server a third of reading a 10,000-row workbook (issue 34:
 * about 130 of 450 ms of CPU). Anything else (stored, or an entry jszip did not load from the
 * file) goes through jszip.
 */
function inflated(entry: JSZip.JSZipObject): AsyncIterable<unknown> {
  const data = (entry as unknown as LoadedEntry)._data;
  const content = data?.compressedContent;
  if (data?.compression?.magic === DEFLATE && content instanceof Uint8Array) {
    const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
    inflate.end(content);
    return inflate;
  }
  return new Readable().wrap(entry.nodeStream('nodebuffer'));
}

/** A relationship target resolved against its source's folder ('/x' is from the root). */
function resolvePath(dir: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : dir + target).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return out.join('/');
}

/** The first relationship of a type (its URI ends in `/kind`). */
export function relationOf(rels: Relations, kind: string): string | undefined {
  for (const { target, type } of rels.values()) if (type.endsWith(`/${kind}`)) return target;
  return undefined;
}

/** The shared strings table: rich text runs joined, phonetic guides left out. */
export async function readSharedStrings(pkg: XlsxPackage, path: string): Promise<string[]> {
  const strings: string[] = [];
  let current = '';
  let inText = false;
  let phonetic = 0;
  await pkg.readXml(path, {
    open(tag) {
      const name = localName(tag.name);
      if (name === 'si') current = '';
      else if (name === 'rPh') phonetic += 1;
      else if (name === 't' && phonetic === 0) inText = true;
    },
    text(text) {
      if (inText) current += text;
    },
    close(qualified) {
      const name = localName(qualified);
      if (name === 'si') strings.push(current);
      else if (name === 'rPh') phonetic -= 1;
      else if (name === 't') inText = false;
    },
  });
  return strings;
}

// Excel's built-in number formats that show a date or a time (ECMA-376 part 1, 18.8.30,
// and the East Asian ones).
const BUILT_IN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51,
  52, 53, 54, 55, 56, 57, 58,
]);

/** Whether a format code shows a date or time: a y, m, d, h or s outside quotes and brackets. */
function isDateFormat(code: string): boolean {
  return /[ymdhs]/i.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));
}

/** For each cell style (the `s` of a cell), whether its number format is a date's. */
export async function readDateStyles(pkg: XlsxPackage, path: string): Promise<boolean[]> {
  const custom = new Map<number, string>();
  const dates: boolean[] = [];
  let inCellXfs = false;
  await pkg.readXml(path, {
    open(tag) {
      const name = localName(tag.name);
      if (name === 'numFmt')
        custom.set(Number(attribute(tag, 'numFmtId')), attribute(tag, 'formatCode') ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        const id = Number(attribute(tag, 'numFmtId') ?? 0);
        const code = custom.get(id);
        dates.push(code === undefined ? BUILT_IN_DATE_FORMATS.has(id) : isDateFormat(code));
      }
    },
    close(name) {
      if (localName(name) === 'cellXfs') inCellXfs = false;
    },
  });
  return dates;
}

/** A date serial of the workbook as an ISO timestamp (1900 or 1904 date system). */
export function serialToIso(serial: number, date1904: boolean): string {
  const days = serial - 25569 + (date1904 ? 1462 : 0);
  return new Date(Math.round(days * 86_400_000)).toISOString();
}
