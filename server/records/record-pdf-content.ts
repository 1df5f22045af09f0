import { UNKNOWN_RECORD } from '#core/audit/audit-format.ts';
import { ENTITY_DEFS, entityDef } from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import type { FieldDef } from '#core/entities/field.ts';
import type { TControlledDocumentType } from '#core/schemas/signatures.schemas.ts';
import type { Queryable } from '../db/db.ts';
import { documentTypeRegistration } from './controlled.ts';
import { fieldText } from './record-pdf.ts';

export interface PrintedField {
  label: string;
  text: string;
}

function declarationOf(documentType: TControlledDocumentType): EntityDef | undefined {
  return ENTITY_DEFS.find((def) => def.controlled?.documentType === documentType);
}

/**
 * Ids as the names a reader knows ('Mixer 1'); the signed content keeps the ids, a reader has no
 * use for them (issue 30). An id with no row left reads as an unknown record.
 */
async function referenceText(q: Queryable, field: FieldDef, value: unknown): Promise<string> {
  if (field.kind !== 'reference') return fieldText(value);
  const ids = (Array.isArray(value) ? value : [value]).filter(
    (id): id is number => typeof id === 'number',
  );
  const target = entityDef(field.entity);
  if (ids.length === 0 || !target.fields.some((f) => f.name === 'name')) return fieldText(value);
  const rows = await q.query<{ id: number; name: string }>(
    `select id, name from ${target.table} where id = any($1::int[])`,
    [ids],
  );
  const names = new Map(rows.map((row) => [row.id, row.name]));
  return ids.map((id) => names.get(id) ?? UNKNOWN_RECORD).join(', ');
}

/**
 * A version's content as the PDF prints it: a declared record's fields under their labels,
 * with references by name; a type that prints its own content, its way; other records' fields
 * as the content names them.
 */
export async function printableContent(
  q: Queryable,
  documentType: TControlledDocumentType,
  content: Record<string, unknown>,
): Promise<PrintedField[]> {
  const print = documentTypeRegistration(documentType)?.printContent;
  if (print) return print(content);
  const def = declarationOf(documentType);
  const printed: PrintedField[] = [];
  for (const [name, value] of Object.entries(content)) {
    const field = def?.fields.find((f) => f.name === name);
    printed.push({
      label: field?.label ?? name,
      text: field ? await referenceText(q, field, value) : fieldText(value),
    });
  }
  return printed;
}
