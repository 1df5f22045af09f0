import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLimitsInput } from './contract-input.ts';
import { contractChunks, contractDocument, renderContractDocument } from './contract-output.ts';
import { differences } from './golden/compare.ts';

/** The command-line contract's published cases (shared/golden/contract), run on the engine. */
interface ContractCase {
  input: unknown;
  expected?: Record<string, unknown>;
  expectedErrorProperty?: string;
  exitCode: 0 | 2;
}

const dir = join(import.meta.dirname, 'golden', 'contract');
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => [f, JSON.parse(readFileSync(join(dir, f), 'utf8')) as ContractCase] as const);

describe('contract cases on the engine', () => {
  it('has every published case', () => {
    expect(cases.length).toBe(21);
  });

  for (const [name, c] of cases.filter(([, c]) => c.exitCode === 0)) {
    it(`${name}: computes the expected document`, () => {
      const parsed = parseLimitsInput(c.input);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
      expect(differences(contractDocument(parsed.input), c.expected, 1e-6)).toEqual([]);
    });

    it(`${name}: --summary is the same document without pairs`, () => {
      const parsed = parseLimitsInput(c.input);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
      const { pairs: _pairs, ...expected } = c.expected ?? {};
      const doc = contractDocument(parsed.input, { summary: true });
      expect(doc).not.toHaveProperty('pairs');
      expect(differences(doc, expected, 1e-6)).toEqual([]);
    });
  }

  it('writes the same text streamed, chunked and as an object', () => {
    for (const [, c] of cases.filter(([, x]) => x.exitCode === 0)) {
      const parsed = parseLimitsInput(c.input);
      if (!parsed.ok) throw new Error('invalid');
      for (const summary of [false, true]) {
        let streamed = '';
        renderContractDocument(parsed.input, { summary }, (chunk) => (streamed += chunk));
        expect([...contractChunks(parsed.input, { summary })].join('')).toBe(streamed);
        expect(JSON.parse(streamed)).toEqual(contractDocument(parsed.input, { summary }));
      }
    }
  });

  for (const [name, c] of cases.filter(([, c]) => c.exitCode === 2)) {
    it(`${name}: rejects the input at ${c.expectedErrorProperty}`, () => {
      const parsed = parseLimitsInput(c.input);
      expect(parsed.ok).toBe(false);
      if (parsed.ok) return;
      expect(parsed.errors.map((e) => e.property)).toContain(c.expectedErrorProperty);
      for (const e of parsed.errors) expect(Object.keys(e.constraints).length).toBeGreaterThan(0);
    });
  }
});
