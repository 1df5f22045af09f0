import { lowerLabel } from '../entities/labels.ts';

/** Why a referenced record has no name to show: what the lookup could not see. */
export type MissingRecordState = 'deleted' | 'archived or deleted' | 'unknown' | 'unnamed';

/**
 * What people read where a referenced record's name cannot be found, in words rather than its
 * number: `missingRecord('Product', 'archived or deleted')` → 'an archived or deleted product'.
 * Equipment is a mass noun: 'a deleted equipment item'. (21 CFR 211.180(d): records are legible;
 * a bare database number identifies nothing to the reader.)
 */
export function missingRecord(
  label: string,
  state: MissingRecordState,
  /** The words open a sentence: 'A deleted product …'. */
  atStart = false,
): string {
  const noun = lowerLabel(label);
  const phrase = `${state} ${noun === 'equipment' ? 'equipment item' : noun}`;
  const article = /^[aeiou]/i.test(phrase) ? 'an' : 'a';
  return `${atStart ? article.charAt(0).toUpperCase() + article.slice(1) : article} ${phrase}`;
}
