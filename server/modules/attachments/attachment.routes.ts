import type { FastifyReply } from 'fastify';
import { actionOf, type EntityDef } from '#core/entities/entity.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZAttachmentList } from '#core/schemas/attachments.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { getEntity } from '#server/entities/entity-store.ts';
import { listAttachments, readAttachment } from './attachment-store.ts';
import { ZId } from '#core/schemas/common.schemas.ts';

const ZOwnerParams = ZFacilityParams.extend({ id: ZId });
const ZDocumentParams = ZOwnerParams.extend({
  documentId: ZId,
});

/** `attachment; filename="…"` with an ASCII fallback and the exact name in RFC 5987 form. */
export function contentDisposition(fileName: string): string {
  // Anything outside printable ASCII is replaced; the exact name travels in filename*.
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

function sendFile(
  reply: FastifyReply,
  file: { fileName: string; mediaType: string; content: Buffer },
) {
  return reply
    .header('content-type', file.mediaType)
    .header('content-disposition', contentDisposition(file.fileName))
    .header('content-length', file.content.length)
    .header('cache-control', 'private, no-store')
    .send(file.content);
}

/**
 * The documents of a record that takes one: the list with superseded versions, one document's
 * file, and the current file. Reading them needs the right to read the record.
 */
export function registerDocumentRoutes({ app, db, permit }: AppContext, def: EntityDef): void {
  const r = typed(app);
  const base = `/api/v2/plans/:plan/facilities/:facility/${def.path}/:id`;
  const tags = [def.pluralLabel];
  const preHandler = permit(def.resource, actionOf(def, 'get'));
  const label = def.label.toLowerCase();

  r.get(
    `${base}/documents`,
    {
      preHandler,
      schema: {
        tags,
        summary: `Documents of a ${label}`,
        description: `The current ${def.document?.label.toLowerCase() ?? 'document'} first, then the ones it superseded (kept, never overwritten), newest first. Without file content; download each by its id.`,
        params: ZOwnerParams,
        response: { 200: ZAttachmentList },
      },
    },
    async (request) => {
      const { facility, id } = request.params;
      await getEntity(db, def, facility, id);
      return { data: await listAttachments(db, facility, def, id) };
    },
  );

  r.get(
    `${base}/document/:documentId`,
    {
      preHandler,
      schema: {
        tags,
        summary: `Download a document of a ${label}`,
        description:
          'The file as stored, byte for byte, with its media type and a Content-Disposition naming the file (RFC 5987 for names outside ASCII). Superseded documents remain downloadable.',
        params: ZDocumentParams,
      },
    },
    async (request, reply) => {
      const { facility, id, documentId } = request.params;
      return sendFile(reply, await readAttachment(db, facility, def, id, documentId));
    },
  );

  r.get(
    `${base}/file`,
    {
      preHandler,
      schema: {
        tags,
        summary: `Download the current file of a ${label}`,
        description: `The ${def.document?.label.toLowerCase() ?? 'document'} now in force; NotFoundError when none was uploaded.`,
        params: ZOwnerParams,
      },
    },
    async (request, reply) => {
      const { facility, id } = request.params;
      return sendFile(reply, await readAttachment(db, facility, def, id, null));
    },
  );
}
