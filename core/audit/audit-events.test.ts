import { describe, expect, it } from 'vitest';
import { LIFECYCLE_RECORD_DECLS, MODULE_RECORD_DEFS, RECORD_DEFS } from '../entities/defs/index.ts';
import { PERMISSION_RESOURCE_NAMES } from '../permissions/permission-map.ts';
import { AUDIT_EVENTS, auditEventList, isCatalogued } from './audit-events.ts';

describe('the catalogue of audit events', () => {
  it('gives every declared record the common actions under its own domain', () => {
    for (const decl of [...RECORD_DEFS, ...MODULE_RECORD_DEFS, ...LIFECYCLE_RECORD_DECLS])
      for (const action of ['Create', 'Update', 'Archive', 'Unarchive'])
        expect(isCatalogued(decl.domain, action), `${decl.domain} ${action}`).toBe(true);
  });

  it('records a document only for the records that take one', () => {
    for (const def of [...RECORD_DEFS, ...MODULE_RECORD_DEFS])
      expect(isCatalogued(def.domain, 'AttachDocument'), def.domain).toBe(
        def.document !== undefined,
      );
  });

  it('takes a refusal under every resource of the permission map', () => {
    for (const resource of PERMISSION_RESOURCE_NAMES)
      expect(isCatalogued(resource, 'AccessRefused'), resource).toBe(true);
  });

  it('keeps the actions of a module under their domain only', () => {
    expect(isCatalogued('Run', 'Submit')).toBe(true);
    expect(isCatalogued('Equipment', 'Submit')).toBe(false);
    expect(isCatalogued('Authentication', 'Login')).toBe(true);
    expect(isCatalogued('Nothing', 'Login')).toBe(false);
    // Names of the object prototype are not actions.
    expect(isCatalogued('Run', 'toString')).toBe(false);
  });

  it('says which events change GMP data and which only record a read or an attempt', () => {
    expect(AUDIT_EVENTS.Equipment.Update.changesData).toBe(true);
    expect(AUDIT_EVENTS.Equipment.Export.changesData).toBe(false);
    expect(AUDIT_EVENTS.Equipment.AccessRefused.changesData).toBe(false);
    expect(AUDIT_EVENTS.ElectronicSignature.Approve.changesData).toBe(true);
    expect(AUDIT_EVENTS.Authentication.LoginFailed.changesData).toBe(false);
    const list = auditEventList();
    expect(list.filter((e) => e.domain === 'MailOutbox')).toEqual([
      { domain: 'MailOutbox', action: 'Read', changesData: false },
    ]);
    expect(new Set(list.map((e) => `${e.domain} ${e.action}`)).size).toBe(list.length);
  });
});
