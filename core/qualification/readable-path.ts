import { labelFromName } from '../entities/labels.ts';

/** A value's path in words: `pairs[0].governingActive` reads 'Pairs 1 · Governing active'. */
export function readablePath(path: string): string {
  return path
    .split('.')
    .filter(Boolean)
    .map((part) => {
      const indexed = /^(.*?)\[(\d+)\]$/.exec(part);
      return indexed
        ? `${labelFromName(indexed[1]!)} ${Number(indexed[2]) + 1}`
        : labelFromName(part);
    })
    .join(' · ');
}
