import { describe, expect, it } from 'vitest';
import { versionLabel } from './version-label.ts';

const state = (status: 'BeingBuilt' | 'Approved', versionNumber: number) => ({
  status,
  signatureState: null,
  versionNumber,
  version: 1,
});

describe('versionLabel', () => {
  it.each([
    [
      'a draft over a version in force',
      { state: state('BeingBuilt', 3), inForceVersionNumber: 2, draftVersionNumber: 3 },
      { text: 'Draft version 3 — not in force', inForce: false },
    ],
    [
      'the version in force, nothing in progress',
      { state: state('Approved', 2), inForceVersionNumber: 2, draftVersionNumber: null },
      { text: 'In force: version 2', inForce: true },
    ],
    [
      'a first version never approved',
      { state: state('BeingBuilt', 1), inForceVersionNumber: null, draftVersionNumber: 1 },
      { text: 'Draft version 1 — not in force', inForce: false },
    ],
    [
      'a server that sends neither',
      { state: state('Approved', 1), inForceVersionNumber: null, draftVersionNumber: null },
      null,
    ],
  ])('%s', (_case, ref, expected) => {
    expect(versionLabel(ref)).toEqual(expected);
  });
});
