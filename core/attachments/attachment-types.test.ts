import { describe, expect, it } from 'vitest';
import { attachmentProblems, cleanFileName, typeOfFileName } from './attachment-types.ts';

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);
const MB = 1024 * 1024;

describe('attachmentProblems', () => {
  const accepted: [string, Uint8Array][] = [
    ['a.pdf', text('%PDF-1.7')],
    ['a.PNG', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0)],
    ['a.jpg', bytes(0xff, 0xd8, 0xff, 0xdb)],
    ['a.jpeg', bytes(0xff, 0xd8, 0xff, 0xe1)],
    ['a.rtf', text('{\\rtf1 x}')],
    ['a.doc', bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)],
    ['a.docx', bytes(0x50, 0x4b, 0x03, 0x04)],
    ['a.txt', text('µg/cm² — ok')],
  ];
  it.each(accepted)('accepts %s with its signature', (name, content) => {
    expect(attachmentProblems('document', name, content, MB)).toEqual([]);
  });

  const refused: [string, Uint8Array, string][] = [
    ['a.exe', text('%PDF-1.7'), 'fileType'],
    ['noextension', text('%PDF-1.7'), 'fileType'],
    ['a.pdf', bytes(0x50, 0x4b, 0x03, 0x04), 'signature'],
    ['a.docx', text('%PDF-1.7'), 'signature'],
    ['a.txt', bytes(0x61, 0, 0x62), 'signature'],
    ['a.txt', bytes(0xc3, 0x28), 'signature'],
    ['a.pdf', new Uint8Array(), 'empty'],
    ['a.pdf', new Uint8Array(MB + 1).fill(0x25), 'size'],
    ['/', text('%PDF'), 'fileName'],
  ];
  it.each(refused)('refuses %s (%#) by %s', (name, content, key) => {
    const [problem] = attachmentProblems('document', name, content, MB);
    expect(problem?.property).toBe('document');
    expect(Object.keys(problem!.constraints)).toEqual([key]);
  });
});

describe('file names', () => {
  it('keep only the base name, without control characters', () => {
    expect(cleanFileName('C:\\fakepath\\Report\u0007 1.pdf')).toBe('Report 1.pdf');
    expect(cleanFileName('../../etc/passwd.txt')).toBe('passwd.txt');
  });
  it('give their type by extension, case-insensitively', () => {
    expect(typeOfFileName('Scan.JPG')).toBe('jpeg');
    expect(typeOfFileName('archive.tar.gz')).toBeUndefined();
  });
});
