import type { PropertyError } from '../errors/errors.ts';

/** Attachment document types (spec §3). */
export const ATTACHMENT_TYPES = ['pdf', 'docx', 'rtf', 'txt', 'png', 'jpeg', 'doc'] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

export const MEDIA_TYPES: Record<AttachmentType, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  rtf: 'application/rtf',
  txt: 'text/plain; charset=utf-8',
  png: 'image/png',
  jpeg: 'image/jpeg',
  doc: 'application/msword',
};

const EXTENSIONS: Record<string, AttachmentType> = {
  pdf: 'pdf',
  docx: 'docx',
  rtf: 'rtf',
  txt: 'txt',
  png: 'png',
  jpeg: 'jpeg',
  jpg: 'jpeg',
  doc: 'doc',
};

/** The `accept` list of a file picker. */
export const ACCEPTED_EXTENSIONS = Object.keys(EXTENSIONS).map((ext) => `.${ext}`);

const SIGNATURES: Record<Exclude<AttachmentType, 'txt'>, readonly number[]> = {
  pdf: [0x25, 0x50, 0x44, 0x46], // %PDF
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff],
  rtf: [0x7b, 0x5c, 0x72, 0x74, 0x66], // {\rtf
  doc: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], // OLE compound file
  docx: [0x50, 0x4b, 0x03, 0x04], // zip (Office Open XML)
};

export function typeOfFileName(fileName: string): AttachmentType | undefined {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return undefined;
  return EXTENSIONS[fileName.slice(dot + 1).toLowerCase()];
}

function startsWith(content: Uint8Array, signature: readonly number[]): boolean {
  return signature.every((byte, i) => content[i] === byte);
}

function isPlainText(content: Uint8Array): boolean {
  if (content.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content);
    return true;
  } catch {
    return false;
  }
}

/** Whether the bytes are what the extension claims; the extension alone is never trusted. */
export function contentMatches(type: AttachmentType, content: Uint8Array): boolean {
  return type === 'txt' ? isPlainText(content) : startsWith(content, SIGNATURES[type]);
}

/** File names are shown and sent back in headers: no paths, no control characters. */
export function cleanFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const printable = [...base].filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f);
  return printable.join('').trim().slice(0, 255);
}

/**
 * The problems with an uploaded file under `property`, or none. The type is taken from the
 * extension and must agree with the content's signature; the media type sent by the browser is
 * ignored, since any client can claim any.
 */
export function attachmentProblems(
  property: string,
  fileName: string,
  content: Uint8Array,
  maxBytes: number,
): PropertyError[] {
  const problem = (key: string, message: string) => [{ property, constraints: { [key]: message } }];
  const type = typeOfFileName(fileName);
  if (!cleanFileName(fileName)) return problem('fileName', 'The file has no name');
  if (!type) {
    return problem(
      'fileType',
      `Only ${ATTACHMENT_TYPES.join(', ')} files can be attached ('${cleanFileName(fileName)}' is not one)`,
    );
  }
  if (content.length === 0) return problem('empty', 'The file is empty');
  if (content.length > maxBytes) return problem('size', sizeMessage(maxBytes));
  if (!contentMatches(type, content)) {
    return problem(
      'signature',
      `The content of '${cleanFileName(fileName)}' is not a ${type} file: its extension does not match what it contains`,
    );
  }
  return [];
}

export function sizeMessage(maxBytes: number): string {
  return `The file is larger than the limit of ${formatMegabytes(maxBytes)}`;
}

function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}
