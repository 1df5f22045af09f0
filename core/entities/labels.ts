/** A word of two or more capitals is an abbreviation (SOP, API, MOC, LDD) and keeps them. */
function isAbbreviation(word: string): boolean {
  return /[A-Z].*[A-Z]/.test(word);
}

/**
 * A label as a sentence reads it inside other words: 'Analytical method' → 'analytical method',
 * 'SOP' → 'SOP' (not 'sOP'), 'MOC records' → 'MOC records'.
 */
export function lowerLabel(label: string): string {
  return label
    .split(' ')
    .map((word) => (isAbbreviation(word) ? word : word.toLowerCase()))
    .join(' ');
}

/**
 * A label for a name that has none declared: 'minBatchSize' → 'Min batch size',
 * 'externalID' → 'External ID', 'pdeValue' → 'Pde value', 'ldd_mg' → 'Ldd mg'.
 */
export function labelFromName(name: string): string {
  const words = name
    .replace(/[_.-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0) return name;
  const text = words.map((word) => (isAbbreviation(word) ? word : word.toLowerCase())).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
