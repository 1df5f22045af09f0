import type { RecordDecl } from '../record-decl.ts';

/**
 * HBEL-0001: a monograph of the plan's HBEL library (issue 32), signed by a toxicologist (EMA
 * HBEL guideline §3: the PDE is derived by a qualified expert). Not numbered per facility: the
 * library is the plan's, so its number is its id.
 */
export const hbelMonographsDecl = {
  key: 'hbel_monographs',
  label: 'HBEL monograph',
  table: 'hbel_monographs',
  domain: 'HbelMonograph',
  controlled: { documentType: 'HbelMonograph' },
} as const satisfies RecordDecl;
