import { describe, expect, it } from 'vitest';
import { PERMISSION_RESOURCES } from './permission-map.ts';
import {
  PERMISSION_TEXTS,
  RESOURCE_NOUNS,
  permissionLabel,
  refusalText,
  resourceTitle,
  rightText,
} from './permission-texts.ts';
import { findForbiddenText } from '../labels/forbidden-text.ts';

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

  it('names a missing right in a refusal by its words, never its key (issue 30)', () => {
    expect(refusalText('Product', 'Modify')).toBe('This needs the right to change products');
    expect(rightText('ApprovalPolicy', 'Sign')).toBe('the right to approve records');
    expect(rightText('AuditLog', 'Get')).toBe('the right to see the audit log');
    expect(rightText('FacilityGroup', 'Add')).toBe('a right you do not hold');
    for (const id of ids) {
      const [resource = '', action = ''] = id.split('.');
      const text = refusalText(resource, action);
      expect(text).not.toContain(resource === 'API' ? 'API.' : resource);
      expect(findForbiddenText(text)).toEqual([]);
    }
  });
});
