import type { LimitsEntityKey } from './archive-impact.ts';
import type { LimitsInput } from './model.ts';

/**
 * Where a record is used in the limits input, as the browser can tell before archiving: the
 * products an active is in, the products made on an item of equipment, the equipment a product
 * is made on. The server says the same by productions (the error of an unconfirmed archive).
 */
export function usageInInput(input: LimitsInput, entity: LimitsEntityKey, name: string): string[] {
  switch (entity) {
    case 'actives':
      return input.products
        .filter((p) => p.actives.some((a) => a.id === name))
        .map((p) => `product '${p.id}'`);
    case 'equipment':
      return Object.entries(input.trains)
        .filter(([, items]) => items.includes(name))
        .map(([product]) => `product '${product}'`);
    case 'products':
      return (Object.hasOwn(input.trains, name) ? (input.trains[name] ?? []) : []).map(
        (item) => `equipment '${item}'`,
      );
  }
}
