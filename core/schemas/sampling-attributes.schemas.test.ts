import { describe, expect, it } from 'vitest';
import { assessByAttributes, levelOf } from './sampling-attributes.schemas.ts';

describe('levelOf', () => {
  it.each([
    [0, 30, 'Low'],
    [9, 30, 'Low'],
    [10, 30, 'Medium'],
    [19, 30, 'Medium'],
    [20, 30, 'High'],
    [30, 30, 'High'],
    [0, 0, 'Low'],
  ] as const)('%d of %d is %s', (score, max, level) => {
    expect(levelOf(score, max)).toBe(level);
  });
});

describe('assessByAttributes', () => {
  const attributes = [
    {
      id: 1,
      name: 'Geometry',
      weight: 2,
      options: [
        { label: 'Flat', score: 1 },
        { label: 'Crevice', score: 5 },
      ],
    },
    {
      id: 2,
      name: 'Material',
      weight: 1,
      options: [
        { label: 'Steel', score: 0 },
        { label: 'Rubber', score: 4 },
      ],
    },
  ];

  it('sums weight × score and keeps what was chosen', () => {
    const result = assessByAttributes(
      attributes,
      new Map([
        [1, 'Crevice'],
        [2, 'Steel'],
      ]),
      'ok',
    );
    // 2 × 5 + 1 × 0 = 10 of 2 × 5 + 1 × 4 = 14.
    expect(result).toMatchObject({ riskScore: 10, riskLevel: 'High' });
    expect(result.assessment).toEqual({
      method: 'attributes',
      maxScore: 14,
      comment: 'ok',
      ratings: [
        { attributeId: 1, attribute: 'Geometry', option: 'Crevice', score: 5, weight: 2 },
        { attributeId: 2, attribute: 'Material', option: 'Steel', score: 0, weight: 1 },
      ],
    });
  });

  it('refuses an attribute left unrated', () => {
    expect(() => assessByAttributes(attributes, new Map([[1, 'Flat']]), undefined)).toThrow();
  });
});
