/** A server property path as antd names a form item: names and list indexes. */
export type PropertyPath = (string | number)[];

/**
 * The one reading of the `property` of the server's per-property messages (DataValidationError,
 * DuplicateEntryError, SampleChangesError): 'products[12].minBatchSize', 'actives.0.activeId'
 * and 'a[1][2].b' all become the segments of an antd name path, indexes as numbers.
 */
export function parsePropertyPath(property: string): PropertyPath {
  const segments: PropertyPath = [];
  for (const part of property.split('.')) {
    const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) {
      if (part !== '') segments.push(part);
      continue;
    }
    const [, name = '', indexes = ''] = match;
    if (name !== '') segments.push(/^\d+$/.test(name) ? Number(name) : name);
    for (const index of indexes.matchAll(/\[(\d+)\]/g)) segments.push(Number(index[1]));
  }
  return segments;
}
