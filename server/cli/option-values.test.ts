import { parseArgs } from 'node:util';
import { expect, it } from 'vitest';
import { valuesJoined } from './option-values.ts';

const parse = (args: string[]) =>
  parseArgs({
    args: valuesJoined(args, ['token']),
    options: { token: { type: 'string' }, out: { type: 'string' } },
  }).values;

it('reads a token that starts with a dash as the value of --token', () => {
  // As parseArgs alone would: "Option '--token' argument is ambiguous".
  expect(() =>
    parseArgs({ args: ['--token', '-Zq3'], options: { token: { type: 'string' } } }),
  ).toThrow(/ambiguous/);
  expect(parse(['--out', 'pack', '--token', '-Zq3'])).toEqual({ out: 'pack', token: '-Zq3' });
  expect(parse(['--token', '--', '--out', 'x'])).toEqual({ token: '--', out: 'x' });
});

it('leaves every other argument as it was', () => {
  expect(valuesJoined(['--out', '-x', '--token=abc', 'rest'], ['token'])).toEqual([
    '--out',
    '-x',
    '--token=abc',
    'rest',
  ]);
  // A --token with nothing after it stays, for parseArgs to refuse.
  expect(valuesJoined(['--token'], ['token'])).toEqual(['--token']);
});
