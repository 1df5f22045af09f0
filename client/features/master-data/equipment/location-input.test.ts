import { describe, expect, it } from 'vitest';
import { toLocationInput } from './location-input.ts';

describe('toLocationInput', () => {
  it('keeps a whole swab area and trims the text', () => {
    expect(
      toLocationInput({
        name: ' Blade ',
        description: '  ',
        sampleType: 'swab',
        swabArea: { value: 25, unit: 'sqcm' },
        material: 'Glass',
      }),
    ).toEqual({
      name: 'Blade',
      description: null,
      sampleType: 'swab',
      swabArea: { value: 25, unit: 'sqcm' },
      material: 'Glass',
    });
  });

  it('sends no area when its value is empty', () => {
    const values = {
      name: 'Outlet',
      sampleType: 'rinse' as const,
      swabArea: { unit: 'sqcm' } as unknown as { value: number; unit: string },
    };
    expect(toLocationInput(values)).toMatchObject({ swabArea: null, material: null });
  });
});
