import { describe, expect, it } from 'vitest';
import { PERMISSION_RESOURCES } from './permission-map.ts';
import {
  PERMISSION_TEXTS,
  RESOURCE_NOUNS,
  permissionLabel,
  resourceTitle,
} from './permission-texts.ts';

const ids = Object.entries(PERMISSION_RESOURCES).flatMap(([resource, actions]) =>
  actions.map((action) => `${resource}.${action}`),
);

describe('permissions in words', () => {
  it.each(ids)('%s has a label and a one-line description, neither naming the id', (id) => {
    const text = PERMISSION_TEXTS[id];
    expect(text?.label).toMatch(/^[A-Z][a-z]/);
    expect(text?.description).toMatch(/^[A-Z].*\.$/);
    expect(text?.description).not.toContain('\n');
    expect(`${text?.label} ${text?.description}`).not.toContain(id);
    const [resource = ''] = id.split('.');
    expect(RESOURCE_NOUNS[resource]?.title).toMatch(/^[A-Z]/);
  });

  it('reads like the domain', () => {
    expect(permissionLabel('Product.Get')).toBe('See products');
    expect(permissionLabel('Equipment.Modify')).toBe('Change equipment');
    expect(permissionLabel('ApprovalPolicy.Sign')).toBe('Approve records');
    expect(resourceTitle('EquipmentWiseCleaningLimit')).toBe('Cleaning limits per equipment');
    expect(new Set(ids.map(permissionLabel)).size).toBe(ids.length);
  });
});
