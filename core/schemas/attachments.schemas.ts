import { z } from 'zod';
import { ATTACHMENT_TYPES } from '../attachments/attachment-types.ts';

/** A stored file of a record, without its content (which is downloaded on its own). */
export const ZAttachment = z
  .object({
    id: z.number().int(),
    ownerKind: z
      .string()
      .describe('The path of the record it belongs to: analytical-method, apis…'),
    ownerId: z.number().int(),
    fileName: z.string(),
    fileType: z.enum(ATTACHMENT_TYPES),
    mediaType: z.string(),
    sizeBytes: z.number().int(),
    sha256: z.string().describe('SHA-256 of the content, hex'),
    uploadedAt: z.string(),
    uploadedBy: z.number().int().nullable(),
    uploadedByName: z.string().nullable(),
    status: z.enum(['Current', 'Superseded']),
    archivedAt: z.string().nullable().describe('When a newer document superseded it'),
    archiveReason: z.string().nullable().describe('The reason of the edit that replaced it'),
    supersededBy: z.number().int().nullable(),
  })
  .describe('A document attached to a record');
export type TAttachment = z.infer<typeof ZAttachment>;

export const ZAttachmentList = z.object({ data: z.array(ZAttachment) });

/** The current document of a record, as its list and detail show it. */
export const ZDocumentSummary = z
  .object({ id: z.number().int(), fileName: z.string(), fileType: z.enum(ATTACHMENT_TYPES) })
  .nullable()
  .describe('The current document of the record, or null; download it by its id');
export type TDocumentSummary = z.infer<typeof ZDocumentSummary>;
