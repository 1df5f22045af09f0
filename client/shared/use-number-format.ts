import { useMemo } from 'react';
import {
  formatNumber,
  formatQuantity,
  significantDigits,
  unitLabel,
} from '#core/units/format-number.ts';
import { isQuantity } from './master-data/format-value.ts';
import { useDateTimeSettings } from './use-date-format.ts';

export interface NumberFormatter {
  digits: number;
  /** '0.0003057', '79,100': the facility's significant digits, never e-notation. */
  number: (value: number) => string;
  /** '0.0003057 mg/swab', '79,100 cm²'; '—' without a value. */
  quantity: (value: number | null | undefined, unit: string) => string;
  /** A stored quantity ({ value, unit }) as text; '' when there is none. */
  quantityOf: (quantity: unknown) => string;
  /** 'mg/sqcm' → 'mg/cm²'. */
  unit: (unit: string) => string;
}

/** Numbers bound to a count of significant digits. */
function numberFormatter(digits: number | null | undefined): NumberFormatter {
  const n = significantDigits(digits);
  return {
    digits: n,
    number: (value) => formatNumber(value, n),
    quantity: (value, unit) => formatQuantity(value, unit, n),
    quantityOf: (quantity) =>
      isQuantity(quantity) ? formatQuantity(quantity.value, quantity.unit, n) : '',
    unit: unitLabel,
  };
}

/**
 * Numbers as the current facility shows them (issue 30: its significant digits, 4 until the
 * settings load). Every screen that shows a measured or computed number uses this.
 */
export function useNumberFormat(): NumberFormatter {
  const { data } = useDateTimeSettings();
  const digits = data?.significantDigits;
  return useMemo(() => numberFormatter(digits), [digits]);
}
