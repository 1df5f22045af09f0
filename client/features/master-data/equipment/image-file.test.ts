import { describe, expect, it } from 'vitest';
import { imageFileProblem, MAX_IMAGE_BYTES } from './image-file.ts';

describe('imageFileProblem', () => {
  it('accepts PNG and JPEG up to 5 MB', () => {
    expect(imageFileProblem({ type: 'image/png', size: 10 })).toBeNull();
    expect(imageFileProblem({ type: 'image/jpeg', size: MAX_IMAGE_BYTES })).toBeNull();
  });

  it('refuses other types and larger files', () => {
    expect(imageFileProblem({ type: 'image/gif', size: 10 })).toBe('Choose a PNG or JPEG image');
    expect(imageFileProblem({ type: 'image/png', size: MAX_IMAGE_BYTES + 1 })).toBe(
      'The image is larger than 5 MB',
    );
  });
});
