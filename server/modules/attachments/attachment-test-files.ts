/** One small file of each attachment type (spec §3), with a real signature, for tests. */
const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  new Uint8Array(
    parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'utf8')] : part)),
  );

export const SAMPLE_FILES = {
  pdf: { name: 'Method TOC-01.pdf', bytes: bytes('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n') },
  docx: {
    name: 'Validation report.docx',
    bytes: bytes([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00], '[Content_Types].xml', [0, 1, 2]),
  },
  rtf: { name: 'notes.rtf', bytes: bytes('{\\rtf1\\ansi Swab recovery 92%}') },
  txt: { name: 'Résumé µg-cm².txt', bytes: bytes('LOQ 0.5 µg/mL — recovery 92 %\n') },
  png: {
    name: 'chromatogram.png',
    bytes: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d], 'IHDR'),
  },
  jpeg: { name: 'swab-site.jpeg', bytes: bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF', [0]) },
  doc: {
    name: 'legacy.doc',
    bytes: bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]),
  },
} as const;
