import { describe, expect, it } from 'vitest';
import { PairSplitter } from './pair-splitter.ts';

const pairA = {
  previous: 'Tab {A}',
  next: 'Syrup "B", 5 ml',
  sharedEquipment: ['Mixer [1]', 'Dryer'],
  area: { value: 100, unit: 'sqcm' },
  criteria: { health: { value: 1, unit: 'mg' }, dose: null },
  governing: 'health',
  governingActive: 'Drug \\ X',
  maco: { value: 1, unit: 'mg' },
  sal: { value: 0.01, unit: 'mg/sqcm' },
  salCapped: false,
};
const pairB = { ...pairA, previous: 'Syrup "B", 5 ml', next: 'Tab {A}' };
const document = JSON.stringify({
  pairs: [pairA, pairB],
  products: [{ id: 'Tab {A}', lowestMaco: null, lowestSal: null, worstNext: null }],
  equipment: [{ id: 'Dryer', lowestSal: null, governingPair: ['Tab {A}', 'x'] }],
});

function split(chunks: string[]) {
  const splitter = new PairSplitter();
  const pairs: unknown[] = [];
  for (const chunk of chunks) splitter.feed(chunk, (json) => pairs.push(JSON.parse(json)));
  return { pairs, rest: JSON.parse(splitter.finish()) as Record<string, unknown> };
}

describe('PairSplitter', () => {
  it('splits the pairs out of the document, whatever is inside their strings', () => {
    const { pairs, rest } = split([document]);
    expect(pairs).toEqual([pairA, pairB]);
    expect(rest).toEqual({
      pairs: [],
      products: JSON.parse(document).products,
      equipment: JSON.parse(document).equipment,
    });
  });

  it('gives the same answer however the text is cut', () => {
    for (const size of [1, 2, 3, 7, 64]) {
      const chunks: string[] = [];
      for (let i = 0; i < document.length; i += size) chunks.push(document.slice(i, i + size));
      const { pairs, rest } = split(chunks);
      expect(pairs, `chunks of ${size}`).toEqual([pairA, pairB]);
      expect(rest.products, `chunks of ${size}`).toEqual(JSON.parse(document).products);
    }
  });

  it('reads a summary document and an empty matrix', () => {
    const summary = '{"products":[],"equipment":[]}\n';
    expect(split([summary])).toEqual({ pairs: [], rest: { products: [], equipment: [] } });
    const empty = '{"pairs":[],"products":[],"equipment":[]}\n';
    expect(split([empty])).toEqual({ pairs: [], rest: { pairs: [], products: [], equipment: [] } });
  });
});
