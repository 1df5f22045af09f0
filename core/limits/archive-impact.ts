import { formatQuantity } from '../units/format-number.ts';
import type { LimitsInput } from './model.ts';
import { applyWhatIf, compareLimits, type PairChange, type WhatIfEdit } from './limits.what-if.ts';

/** The entities whose archiving changes limits, and the what-if edit that archiving is. */
export const ARCHIVE_EDITS = {
  actives: (name: string): WhatIfEdit => ({ kind: 'archiveActive', active: name }),
  equipment: (name: string): WhatIfEdit => ({ kind: 'archiveEquipment', equipment: name }),
  products: (name: string): WhatIfEdit => ({ kind: 'archiveProduct', product: name }),
} as const;

export type LimitsEntityKey = keyof typeof ARCHIVE_EDITS;

export function isLimitsEntity(key: string): key is LimitsEntityKey {
  return Object.hasOwn(ARCHIVE_EDITS, key);
}

export interface ArchiveImpact {
  /** Pairs whose MACO or SAL moves, the most important first (at most `maxRows`). */
  changes: PairChange[];
  /** How many pairs move in all. */
  moved: number;
  /** Pairs that are no longer computed (the product or the last shared item is gone). */
  removed: number;
}

/** What archiving one record does to the limits: the what-if engine on the input without it. */
export function archiveImpact(
  input: LimitsInput,
  entity: LimitsEntityKey,
  name: string,
  maxRows = 1000,
): ArchiveImpact {
  const result = compareLimits(input, applyWhatIf(input, [ARCHIVE_EDITS[entity](name)]), {
    maxRows,
  });
  return {
    changes: result.changes,
    moved: result.moved,
    removed: result.pairsBefore - (result.pairsAfter - result.added),
  };
}

const mg = (value: number | null, unit: string) =>
  value === null ? 'none' : formatQuantity(value, unit);

/** One pair's change as a line: "A → B: MACO 83.33 mg → 166.7 mg". */
export function describeChange(change: PairChange): string {
  return `${change.previous} → ${change.next}: MACO ${mg(change.macoBefore, 'mg')} → ${mg(change.macoAfter, 'mg')}`;
}

/** The impact in a sentence, for the error that asks to confirm it and for the dialog. */
export function describeImpact(impact: ArchiveImpact, shown = 3): string {
  if (impact.moved === 0 && impact.removed === 0) return 'No limit changes.';
  const parts: string[] = [];
  if (impact.moved > 0) {
    const lines = impact.changes.slice(0, shown).map(describeChange);
    const more = impact.moved > lines.length ? `; and ${impact.moved - lines.length} more` : '';
    const list = lines.length > 0 ? ` (${lines.join('; ')}${more})` : '';
    parts.push(`${impact.moved} limit${impact.moved === 1 ? '' : 's'} change${list}`);
  }
  if (impact.removed > 0)
    parts.push(
      `${impact.removed} pair${impact.removed === 1 ? ' is' : 's are'} no longer computed`,
    );
  return `${parts.join(', and ')}.`;
}
