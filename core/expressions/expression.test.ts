import { describe, expect, it } from 'vitest';
import {
  evaluateExpression,
  expressionNames,
  expressionSyntaxProblem,
  expressionText,
  parseExpression,
} from './expression.ts';

const value = (source: string, values: Record<string, number> = {}) =>
  evaluateExpression(parseExpression(source), values);

describe('the facility’s expression language', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['8 / 4 / 2', 1],
    ['10 - 4 - 3', 3],
    ['2 ^ 3 ^ 2', 512],
    ['-2 ^ 2', -4],
    ['(-2) ^ 2', 4],
    ['2 ^ -1', 0.5],
    ['2 * -3', -6],
    ['2 * 3 ^ 2', 18],
    ['min(4, 2 * 3, 5) + max(1, 2)', 6],
    ['1e-3 * 2000', 2],
  ])('%s = %d (precedence and associativity)', (source, expected) => {
    expect(value(source)).toBeCloseTo(expected, 12);
  });

  it.each([
    ['', 'Invalid formula: the formula is empty'],
    ['1 +', 'Invalid formula: the formula ends too early'],
    ['(1 + 2', "Invalid formula: ')' expected to close '(' at position 1"],
    ['2 $ 3', "Invalid formula: unexpected '$' at position 3"],
    ['1 2', "Invalid formula: unexpected '2' at position 3"],
    ['exp(1)', "Invalid formula: unknown function 'exp' (known: "],
    ['constructor(1)', "Invalid formula: unknown function 'constructor'"],
  ])('refuses %j with where and why', (source, message) => {
    expect(expressionSyntaxProblem(source)).toContain(message);
  });

  it('names a missing value and a division by zero instead of answering infinity', () => {
    expect(() => value('a * b', { a: 1 })).toThrow("no value for 'b'");
    expect(() => value('toString', {})).toThrow("no value for 'toString'");
    expect(() => value('a / (b - 1)', { a: 1, b: 1 })).toThrow('division by zero: b - 1 is 0');
  });

  it('writes a formula back with the parentheses its meaning needs, values in place', () => {
    const node = parseExpression('HBEL * MBS / (SF * MDD) - (a - b) + 2 ^ (1 + 1)');
    expect(expressionText(node)).toBe('HBEL * MBS / (SF * MDD) - (a - b) + 2 ^ (1 + 1)');
    expect(expressionText(parseExpression('(a ^ b) ^ c'))).toBe('(a ^ b) ^ c');
    expect(expressionText(parseExpression('(-a) ^ 2 - -a ^ 2'))).toBe('(-a) ^ 2 - -a ^ 2');
    expect(expressionText(parseExpression('a / (b * c)'), (n) => `[${n}]`)).toBe(
      '[a] / ([b] * [c])',
    );
    expect([...expressionNames(node)]).toEqual(['HBEL', 'MBS', 'SF', 'MDD', 'a', 'b']);
  });
});
