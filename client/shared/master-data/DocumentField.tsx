import { Button, Form, Tag, Typography, Upload } from 'antd';
import type { EntityDef } from '#core/entities/entity.ts';
import { ACCEPTED_EXTENSIONS } from '#core/attachments/attachment-types.ts';
import { documentUrl, useDocuments } from './document-api.ts';
import { useFacilityScope } from './use-facility-scope.ts';
import { lowerLabel } from '#core/entities/labels.ts';

interface DocumentFieldProps {
  def: EntityDef;
  /** The record being edited, or null when one is being created. */
  ownerId: number | null;
  file: File | null;
  /** The server's refusal of the chosen file. */
  error: string | null;
  onChange: (file: File | null) => void;
}

/**
 * The file picker of an entity that takes a document (its declaration's `document`), with the
 * documents already stored: a new file replaces the current one, which is kept as superseded.
 */
export function DocumentField({ def, ownerId, file, error, onChange }: DocumentFieldProps) {
  const scope = useFacilityScope();
  const documents = useDocuments(def, ownerId);
  const label = def.document?.label ?? 'Document';
  const stored = documents.data ?? [];
  return (
    <Form.Item
      label={label}
      validateStatus={error ? 'error' : undefined}
      help={error ?? undefined}
      extra={`Types: ${ACCEPTED_EXTENSIONS.join(', ')}.${stored.length > 0 ? ' A new file replaces the current one; earlier files are kept.' : ''}`}
    >
      {stored.length > 0 ? (
        <ul style={{ paddingLeft: 16, margin: '0 0 8px' }} aria-label={`${label} files`}>
          {stored.map((doc) => (
            <li key={doc.id}>
              <Typography.Link href={documentUrl(scope, def, doc.ownerId, doc.id)} download>
                {doc.fileName}
              </Typography.Link>{' '}
              {doc.status === 'Current' ? (
                <Tag color="green">Current</Tag>
              ) : (
                <Tag title={doc.archiveReason ?? undefined}>Superseded</Tag>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <Upload
        accept={ACCEPTED_EXTENSIONS.join(',')}
        maxCount={1}
        fileList={file ? [{ uid: 'chosen', name: file.name, status: 'done' }] : []}
        beforeUpload={(chosen) => {
          onChange(chosen);
          // Sent with the form, never on its own.
          return false;
        }}
        onRemove={() => onChange(null)}
      >
        <Button>
          {stored.length > 0 ? `Replace ${lowerLabel(label)}` : `Choose ${lowerLabel(label)}`}
        </Button>
      </Upload>
    </Form.Item>
  );
}
