import { labelFromName, lowerLabel } from '../entities/labels.ts';

/** A server property path as antd names a form item: names and list indexes. */
export type PropertyPath = (string | number)[];

/**
 * The one reading of the `property` of the server's per-property messages (DataValidationError,
 * DuplicateEntryError, SampleChangesError) and of the limits engine's input problems:
 * 'products[12].minBatchSize', 'actives.0.activeId' and 'a[1][2].b' all become the segments of
 * an antd name path, indexes as numbers. It lives in core so that the server reads alike.
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

/** Short forms in property names, as a sentence spells them. */
const SPELLED: Readonly<Record<string, string>> = {
  min: 'minimum',
  max: 'maximum',
  pde: 'PDE',
  ld50: 'LD50',
  noael: 'NOAEL',
  loq: 'LOQ',
  lod: 'LOD',
  sal: 'SAL',
  mac: 'MAC',
  maco: 'MACO',
  api: 'API',
  apis: 'APIs',
  rpn: 'RPN',
  sop: 'SOP',
  td: 'therapeutic dose',
};

/**
 * A property name as words inside a sentence: 'minBatchSize' → 'minimum batch size',
 * 'activeId' → 'active', 'equipmentIds' → 'equipment', 'pde' → 'PDE'.
 */
export function nameInWords(name: string): string {
  const words = lowerLabel(labelFromName(name))
    .split(' ')
    .map((word) => SPELLED[word] ?? word);
  if (words.length > 1 && /^(id|ids|ID|IDs)$/.test(words[words.length - 1]!)) words.pop();
  return words.join(' ');
}

/** 'products' → 'product', for one item of a list. */
function singular(words: string): string {
  if (/ies$/.test(words)) return words.replace(/ies$/, 'y');
  return /[^s]s$/.test(words) ? words.slice(0, -1) : words;
}

export interface PathWords {
  /** A name's words where the caller knows better than the name (a form's field label). */
  label?: (name: string) => string | undefined;
  /** An item of a list by its name ('Aspirin 100 mg'), where the caller knows it. */
  itemName?: (list: string, index: number) => string | undefined;
}

/**
 * A server property path as a reader says it, never the path itself:
 * 'products[12].minBatchSize.unit' → 'product 13, unit of minimum batch size', or with the
 * product's name, "product ‘Aspirin’, unit of minimum batch size". A quantity's value is the
 * quantity; list items count from 1.
 */
export function propertyInWords(property: string | PropertyPath, words: PathWords = {}): string {
  const path = typeof property === 'string' ? parsePropertyPath(property) : property;
  const parts: string[] = [];
  let list: string | undefined;
  for (const [i, segment] of path.entries()) {
    if (typeof segment === 'number') {
      const name = list === undefined ? undefined : words.itemName?.(list, segment);
      const noun = list === undefined ? 'item' : singular(parts.pop() ?? 'item');
      parts.push(name === undefined ? `${noun} ${segment + 1}` : `${noun} ‘${name}’`);
      list = undefined;
      continue;
    }
    const last = i === path.length - 1;
    if (last && segment === 'value' && parts.length > 0) break;
    if (last && segment === 'unit' && parts.length > 0) {
      parts.push(`unit of ${parts.pop()!}`);
      break;
    }
    parts.push(words.label?.(segment) ?? nameInWords(segment));
    list = segment;
  }
  return parts.join(', ');
}

/** The same words opening a line: 'Product 13, minimum batch size'. */
export function propertyHeading(property: string | PropertyPath, words: PathWords = {}): string {
  const text = propertyInWords(property, words);
  return text.charAt(0).toUpperCase() + text.slice(1);
}
