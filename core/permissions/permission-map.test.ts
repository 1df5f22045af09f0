import { describe, expect, it } from 'vitest';
import {
  emptyPermissionMap,
  fullPermissionMap,
  isAllowed,
  isRestrictedUser,
  mergePermissionMaps,
  missingPermissions,
} from './permission-map.ts';

describe('permission map', () => {
  it('starts with every action false', () => {
    const map = emptyPermissionMap();
    expect(Object.values(map).every((actions) => Object.values(actions).every((v) => !v))).toBe(
      true,
    );
    expect(Object.keys(map.User ?? {})).toEqual(['Add', 'Archive', 'Modify', 'Get']);
    expect(Object.keys(map.Production ?? {})).toEqual([
      'Add',
      'Delete',
      'Modify',
      'Get',
      'Archive',
      'Set',
      'Dummy',
    ]);
    expect(Object.keys(map.Equipment ?? {})).toEqual(['Add', 'Delete', 'Modify', 'Get', 'Archive']);
    expect(Object.keys(map.Master ?? {})).toEqual(['BulkExport', 'BulkImport']);
  });

  it('merges roles by allowing what any role allows, ignoring unknown entries', () => {
    const a = emptyPermissionMap();
    a.Product = { ...a.Product, Get: true };
    const merged = mergePermissionMaps([
      a,
      { Unknown: { Get: true }, AuditLog: { Get: true, Bogus: true } },
    ]);
    expect(isAllowed(merged, 'Product', 'Get')).toBe(true);
    expect(isAllowed(merged, 'AuditLog', 'Get')).toBe(true);
    expect(isAllowed(merged, 'Product', 'Add')).toBe(false);
    expect(isAllowed(merged, 'Unknown', 'Get')).toBe(false);
    expect(isAllowed(fullPermissionMap(), 'Master', 'BulkImport')).toBe(true);
  });

  it.each([
    [['Production'], true],
    [['Production', 'Quality Control'], true],
    [['Production', 'Administrator'], false],
    [[], false],
  ])('roles %j restricted: %s', (roles, expected) => {
    expect(isRestrictedUser(roles)).toBe(expected);
  });

  it('lists what a map allows beyond its holder, and nothing when the holder covers it', () => {
    const holder = emptyPermissionMap();
    holder.User!.Modify = true;
    const wanted = emptyPermissionMap();
    wanted.User!.Modify = true;
    wanted.Equipment!.Delete = true;
    expect(missingPermissions(holder, wanted)).toEqual(['Equipment.Delete']);
    expect(missingPermissions(fullPermissionMap(), wanted)).toEqual([]);
    expect(missingPermissions(wanted, holder)).toEqual([]);
  });
});
