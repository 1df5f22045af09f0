import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileLimits } from './compile.ts';
import { parseLimitsInput } from './contract-input.ts';
import { contractDocument } from './contract-output.ts';
import { renderDerivation } from './derivation.ts';
import { explainPair } from './explain.ts';

const dir = join(import.meta.dirname, 'golden', 'contract');
const inputs = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map(
    (f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { input: unknown; exitCode: number },
  )
  .filter((c) => c.exitCode === 0)
  .map((c) => {
    const parsed = parseLimitsInput(c.input);
    if (!parsed.ok) throw new Error('a computation case failed validation');
    return parsed.input;
  });

describe('derivations', () => {
  it('explains every pair of every contract case with the matrix’s own numbers', () => {
    let explained = 0;
    for (const input of inputs) {
      const m = compileLimits(input);
      for (const pair of contractDocument(input).pairs ?? []) {
        const e = explainPair(m, pair.previous, pair.next);
        if (!e) throw new Error(`no explanation for ${pair.previous} → ${pair.next}`);
        explained++;
        expect(e.sharedEquipment).toEqual(pair.sharedEquipment);
        expect(e.governing).toBe(pair.governing);
        expect(e.governingActive).toBe(pair.governingActive);
        for (const key of ['health', 'dose', 'ld50', 'arl'] as const) {
          expect(e.criteria[key].result?.value ?? null).toBe(pair.criteria[key]?.value ?? null);
        }
        expect(e.maco.result?.value ?? null).toBe(pair.maco?.value ?? null);
        expect(e.area.result?.value).toBe(pair.area.value);
        expect(e.sal.result?.value ?? null).toBe(pair.sal?.value ?? null);
        if (pair.swabLimit !== undefined) {
          expect(e.swabLimit?.result?.value ?? null).toBe(pair.swabLimit?.value ?? null);
        }
        if (pair.rinseLimit !== undefined) {
          expect(e.rinseLimit?.result?.value ?? null).toBe(pair.rinseLimit?.value ?? null);
        }
      }
    }
    expect(explained).toBeGreaterThan(100);
  });

  it('lists every input with its unit as given, in the unit used, and its source', () => {
    const input = inputs[0];
    if (!input) throw new Error('no input');
    const first = contractDocument(input).pairs?.[0];
    if (!first) throw new Error('no pair');
    const e = explainPair(input, first.previous, first.next);
    if (!e) throw new Error('no explanation');
    for (const d of [e.criteria.health, e.criteria.dose, e.criteria.ld50, e.criteria.arl, e.sal]) {
      expect(d.formula.length).toBeGreaterThan(0);
      expect(d.reference.length).toBeGreaterThan(0);
      for (const i of d.inputs) {
        expect(i.source).not.toBe('');
        expect(typeof i.given.unit).toBe('string');
        expect(Number.isFinite(i.value)).toBe(true);
      }
    }
    const mbs = e.criteria.arl.inputs.find((i) => i.symbol === 'MBS');
    // The record a reviewer can open, by name; never an engine array path.
    expect(mbs?.source).toBe(`product ${first.next}: minimum batch size`);
    expect(mbs?.record).toEqual({ kind: 'product', name: first.next, field: 'minimum batch size' });
    const all = Object.values(e.criteria).flatMap((d) => d.inputs);
    for (const i of [...all, ...e.area.inputs, ...e.sal.inputs]) {
      expect(i.source).not.toMatch(/\[\d+\]|^policy\.|^products|^equipment\[/);
    }
    // per-active steps reproduce the criterion's lowest value
    const steps = e.criteria.dose.steps.filter((s) => s.symbol.startsWith('MACO('));
    if (e.criteria.dose.result) {
      expect(Math.min(...steps.map((s) => s.value ?? Infinity))).toBeCloseTo(
        e.criteria.dose.result.value,
        9,
      );
    }
    if (e.maco.result && e.criteria.arl.steps[0]?.value) {
      expect(e.limitInNextProduct.result?.value).toBeCloseTo(
        e.maco.result.value / e.criteria.arl.steps[0].value,
        9,
      );
    }
    const text = renderDerivation(e.sal).join('\n');
    expect(text).toContain('SAL');
    expect(text).toContain('mg/sqcm');
  });

  it('says why a criterion is null', () => {
    const input = inputs[0];
    if (!input) throw new Error('no input');
    const off = { ...input, policy: { ...input.policy, useDosage: false } };
    const first = contractDocument(off).pairs?.[0];
    if (!first) throw new Error('no pair');
    const e = explainPair(off, first.previous, first.next);
    expect(e?.criteria.dose.result).toBeNull();
    expect(e?.criteria.dose.note).toBe('the policy does not use the dose criterion');
  });

  it('has no explanation for products that share no equipment', () => {
    const input = inputs[0];
    if (!input) throw new Error('no input');
    expect(explainPair(input, 'nope', 'other')).toBeUndefined();
  });

  it('gives each active of a combination product its own limit, the lowest being the pair’s', () => {
    let combos = 0;
    for (const input of inputs.filter((i) => !i.policy.useFirstAvailableCriteria)) {
      for (const pair of contractDocument(input).pairs ?? []) {
        const e = explainPair(input, pair.previous, pair.next);
        if (!e || e.perActive.length < 2 || pair.maco === null) continue;
        combos++;
        const lowest = Math.min(...e.perActive.map((a) => a.maco).filter((x) => !Number.isNaN(x)));
        expect(lowest / pair.maco.value).toBeCloseTo(1, 12);
        const governing = e.perActive.find((a) => a.active === pair.governingActive);
        expect(governing?.maco).toBeCloseTo(pair.maco.value, 9);
      }
    }
    expect(combos).toBeGreaterThan(5);
  });

  it('flags the pair’s limits against the checks it is given', () => {
    const input = inputs[0];
    const first = input ? contractDocument(input).pairs?.[0] : undefined;
    if (!input || !first?.sal) throw new Error('no pair with a surface limit');
    const sal = first.sal.value;
    const e = explainPair(input, first.previous, first.next, {
      visibleResidueLimit: { value: sal / 2, unit: 'mg/sqcm' },
    });
    expect(e?.flags?.aboveVisibleResidueLimit).toBe(true);
    expect(explainPair(input, first.previous, first.next)?.flags).toBeUndefined();
  });
});
