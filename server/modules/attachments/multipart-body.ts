import type { FastifyRequest } from 'fastify';
import { attachmentProblems, sizeMessage } from '#core/attachments/attachment-types.ts';
import { validationError } from '#core/errors/errors.ts';
import type { Config } from '#server/config.ts';
import type { Guard } from '#server/http/app-context.ts';
import type { Upload } from './attachment-store.ts';

/** The multipart part names of a create or edit with a document. */
export const DATA_PART = 'data';
export const FILE_PART = 'document';

export const MULTIPART_DESCRIPTION = `Send application/json, or multipart/form-data with two parts: \`${DATA_PART}\`, a field holding the same JSON object as the JSON body, and \`${FILE_PART}\`, the file (types pdf, docx, rtf, txt, png, jpeg, doc, checked by extension and content). The record and its document are saved in one transaction.`;

const uploads = new WeakMap<FastifyRequest, Upload>();

/** The file a multipart request carried, once `readMultipartBody` has read it. */
export function uploadOf(request: FastifyRequest): Upload | undefined {
  return uploads.get(request);
}

function refuse(property: string, key: string, message: string): never {
  throw validationError([{ property, constraints: { [key]: message } }]);
}

/**
 * A preValidation hook: for a multipart request it checks the caller's right first (so that no
 * stranger makes the server read a file), then reads the JSON part into the body, which the
 * route's schema then validates as usual, and keeps the checked file for the handler.
 */
export function readMultipartBody(guard: Guard, maxBytes: number) {
  return async (request: FastifyRequest, reply: Parameters<Guard>[1]): Promise<void> => {
    if (!request.isMultipart()) return;
    await guard(request, reply);
    let body: unknown = {};
    let upload: Upload | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== FILE_PART || upload) {
            await part.toBuffer().catch(() => undefined);
            refuse(part.fieldname, 'unknown', `Send one file, as the '${FILE_PART}' part`);
          }
          upload = { fileName: part.filename, content: await part.toBuffer() };
        } else if (part.fieldname === DATA_PART) {
          body = parseJson(String(part.value));
        } else {
          refuse(part.fieldname, 'unknown', 'is not a part of this request');
        }
      }
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') refuse(FILE_PART, 'size', sizeMessage(maxBytes));
      if (code === 'FST_FILES_LIMIT') refuse(FILE_PART, 'unknown', 'Send one file only');
      if (code?.startsWith('FST_')) refuse('body', 'multipart', (error as Error).message);
      throw error;
    }
    if (upload) {
      const problems = attachmentProblems(FILE_PART, upload.fileName, upload.content, maxBytes);
      if (problems.length > 0) throw validationError(problems);
      uploads.set(request, upload);
    }
    request.body = body;
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return refuse(DATA_PART, 'json', `The '${DATA_PART}' part must be a JSON object`);
  }
}

export function maxAttachmentBytes(config: Pick<Config, 'ATTACHMENT_MAX_MB'>): number {
  return Math.floor(config.ATTACHMENT_MAX_MB * 1024 * 1024);
}

/** One file and a few small fields per request; the file no larger than the configured limit. */
export function multipartOptions(config: Pick<Config, 'ATTACHMENT_MAX_MB'>) {
  return {
    limits: { fileSize: maxAttachmentBytes(config), files: 1, fields: 5, fieldSize: 1024 * 1024 },
  };
}
