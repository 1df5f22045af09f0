import { describe, expect, it } from 'vitest';
import { productsDef } from '#core/entities/defs/index.ts';
import { defOfChange, isEditable, STAGEABLE_DEFS, stageAction } from './stage-target.ts';

describe('what a change assessment may stage', () => {
  it('offers the master data, not the change-control register itself', () => {
    expect(STAGEABLE_DEFS.map((def) => def.key)).toContain('products');
    expect(STAGEABLE_DEFS.map((def) => def.key)).not.toContain('mocRecords');
  });
  it('needs the permission of the direct write', () => {
    expect(stageAction(productsDef, 'create')).toBe('Add');
    expect(stageAction(productsDef, 'update')).toBe('Modify');
    expect(stageAction(productsDef, 'restore')).toBe(stageAction(productsDef, 'archive'));
  });
  it('opens creates, edits and policy edits again in their form, not archives', () => {
    expect(defOfChange({ entity: 'products' })).toBe(productsDef);
    expect(defOfChange({ entity: 'cleaningLimitPolicy' })).toBeNull();
    expect(isEditable({ op: 'update', entity: 'products' })).toBe(true);
    expect(isEditable({ op: 'update', entity: 'cleaningLimitPolicy' })).toBe(true);
    expect(isEditable({ op: 'archive', entity: 'products' })).toBe(false);
    expect(isEditable({ op: 'create', entity: 'nothing' })).toBe(false);
  });
});
