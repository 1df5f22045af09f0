import { Typography } from 'antd';
import type { EntityDef } from '#core/entities/entity.ts';
import { documentOf, documentUrl } from '#client/shared/master-data/document-api.ts';
import type { EntityRecord, FacilityScope } from '#client/shared/master-data/entity-api.ts';

/** The list column of an entity that takes a document: the current file, as a download link. */
export function documentColumn(def: EntityDef, scope: FacilityScope) {
  return {
    key: 'document',
    title: def.document?.label ?? 'Document',
    render: (_: unknown, record: EntityRecord) => {
      const document = documentOf(record);
      return document ? (
        <Typography.Link href={documentUrl(scope, def, record.id, document.id)} download>
          {document.fileName}
        </Typography.Link>
      ) : (
        <Typography.Text type="secondary">None</Typography.Text>
      );
    },
  };
}
