import { describe, expect, it } from 'vitest';
import {
  auditChangeLines,
  auditActionLabel,
  auditChangeLine,
  auditFieldChanges,
  auditReferences,
  auditSubject,
  auditWhat,
  type AuditFormat,
} from './audit-format.ts';
import { labelFromName, lowerLabel } from '../entities/labels.ts';

const format: AuditFormat = {
  names: { 'actives:3': 'Paracetamol', 'products:12': 'Aspirin 100', 'equipment:7': 'Mixer 1' },
  formatDateTime: (iso) => `formatted ${iso.slice(0, 10)}`,
};

const lines = (row: Parameters<typeof auditFieldChanges>[0]) =>
  auditFieldChanges(row, format).map((change) => auditChangeLine(change));

describe('audit rows as an inspector reads them', () => {
  it('shows each changed field of a product by its label, old → new, with units', () => {
    expect(
      lines({
        domain: 'Product',
        entityId: '12',
        oldValues: { minBatchSize: { value: 100, unit: 'kg' }, dosageForm: 'Tablet' },
        newValues: { minBatchSize: { value: 120, unit: 'kg' }, dosageForm: 'Capsule' },
      }),
    ).toEqual(['Minimum batch size: 100 kg → 120 kg', 'Dosage form: Tablet → Capsule']);
  });

  it('names referenced records and list rows instead of ids or JSON', () => {
    expect(
      lines({
        domain: 'Product',
        entityId: '12',
        oldValues: null,
        newValues: {
          actives: [{ activeId: 3, amount: { value: 0.5, unit: 'mg' } }, { activeId: 99 }],
          unitWeight: null,
        },
      }),
    ).toEqual([
      'Actives: Active: Paracetamol, Amount per unit: 0.5 mg; Active: (unknown record)',
      'Unit weight: —',
    ]);
  });

  it('leaves out what a child row repeats on both sides, and reads archiving as yes or no', () => {
    expect(
      lines({
        domain: 'SamplingLocation',
        entityId: '4',
        oldValues: { equipmentId: 7, archived: false },
        newValues: { equipmentId: 7, archived: true },
      }),
    ).toEqual(['Archived: No → Yes']);
    expect(
      lines({
        domain: 'SamplingLocation',
        entityId: '4',
        oldValues: null,
        newValues: { equipmentId: 7, name: 'Lid gasket' },
      }),
    ).toEqual(['Equipment: Mixer 1', 'Name: Lid gasket']);
  });

  it('labels undeclared fields from their names and formats dates and nested values', () => {
    expect(
      lines({
        domain: 'DateTimeSettings',
        entityId: null,
        oldValues: { dateFormat: 'DD-MM-YYYY', validUntil: '2026-01-02T03:04:05.000Z' },
        newValues: { dateFormat: 'MMM DD, YYYY', limits: { maxRows: 10, isStrict: false } },
      }),
    ).toEqual([
      'Date format: DD-MM-YYYY → MMM DD, YYYY',
      'Valid until: formatted 2026-01-02',
      'Limits: Max rows: 10, Is strict: No',
    ]);
  });

  it("prints a record's numbers with the facility's digits, the audit trail's with every digit", () => {
    const row = {
      domain: 'Run',
      entityId: '4',
      oldValues: null,
      newValues: { percentOfLimit: 210.522454092374, area: { value: 79100.25, unit: 'cm2' } },
    };
    expect(auditFieldChanges(row, { ...format, digits: 4 }).map((c) => c.after)).toEqual(
      expect.arrayContaining(['210.5', expect.stringMatching(/^79,100 /)]),
    );
    expect(auditFieldChanges(row, format).map((c) => c.after)).toEqual(
      expect.arrayContaining(['210.522454092374']),
    );
  });

  it("leaves out a generation's job id, a key for the logs (issue 30)", () => {
    for (const domain of ['ReportDocument', 'CleaningAssessment'])
      expect(
        lines({
          domain,
          entityId: '4',
          oldValues: null,
          newValues: { number: 'CA-0004', jobId: 'deeff8dc-6e45-456f-93f2-fb9ff975833a' },
        }).join('\n'),
      ).not.toMatch(/Job|deeff8dc/);
  });

  it('names the record a row is about, and the record a signature signs', () => {
    const product = {
      domain: 'Product',
      action: 'Create',
      entityId: '12',
      oldValues: null,
      newValues: null,
    };
    expect(auditSubject(product, format.names)).toBe('Product ‘Aspirin 100’');
    expect(auditSubject({ ...product, entityId: '13' }, format.names)).toBe('Product');
    expect(
      auditSubject({ domain: 'DefaultUnit', entityId: null, oldValues: null, newValues: null }, {}),
    ).toBe('Default unit');
    const signature = {
      domain: 'ElectronicSignature',
      entityId: '8',
      oldValues: null,
      newValues: { documentType: 'SOP', documentId: 8 },
    };
    expect(auditSubject(signature, { 'sops:8': 'Line clearance' })).toBe('SOP ‘Line clearance’');
    expect([...auditReferences(signature)]).toEqual([['sops', new Set([8])]]);
    expect(auditActionLabel('SignatureRefused')).toBe('Signature refused');
    expect(auditWhat(product, format.names)).toBe('Product ‘Aspirin 100’ · Create');
    expect(auditWhat({ ...product, action: 'Update' }, format.names, 'Product')).toBe('Update');
    const signed = { ...signature, action: 'Approve' };
    expect(auditWhat(signed, {}, 'SOP')).toBe('Signature: Approve');
    expect(auditWhat(signed, { 'sops:8': 'Line clearance' })).toBe(
      'SOP ‘Line clearance’ · Signature: Approve',
    );
    // The record's workflow codes a signature records read in the record screen's words.
    const states = {
      ...signature,
      newValues: { status: 'BeingApproved', signatureState: 'PendingApproval' },
    };
    expect(auditChangeLines(states, format)).toEqual([
      'Status: Being approved',
      'Signature state: Signing Pending',
    ]);
    const runApproved = { domain: 'Run', entityId: '3', oldValues: null };
    expect(auditChangeLines({ ...runApproved, newValues: { status: 'Approved' } }, format)).toEqual(
      ['Status: Approved'],
    );
  });

  it('collects the records to name: the subject and every reference', () => {
    const refs = auditReferences({
      domain: 'Production',
      entityId: '2',
      oldValues: { productIds: [12] },
      newValues: { productIds: [13], equipmentIds: [7, 8] },
    });
    expect(refs.get('productions')).toEqual(new Set([2]));
    expect(refs.get('products')).toEqual(new Set([12, 13]));
    expect(refs.get('equipment')).toEqual(new Set([7, 8]));
  });
});

describe('rows about accounts, roles, facilities and default units', () => {
  const names = {
    'users:9': 'Ada Lovelace',
    'departments:3': 'Quality',
    'facilities:1': 'Site A',
    'roles:2': 'Administrator',
    'roles:4': 'Reviewer',
    'defaultUnits:5': 'surfaceArea',
  };
  const named: AuditFormat = { ...format, names };
  const user = { domain: 'User', entityId: '9', oldValues: null, newValues: null };
  const namedLines = (row: Parameters<typeof auditFieldChanges>[0]) =>
    auditFieldChanges(row, named).map((change) => auditChangeLine(change));

  it('names users and default units instead of numbers', () => {
    expect(auditSubject(user, names)).toBe('User ‘Ada Lovelace’');
    const unit = { domain: 'DefaultUnit', entityId: '5 (surfaceArea)' };
    expect(auditSubject({ ...unit, oldValues: null, newValues: null }, names)).toBe(
      'Default unit ‘surface area’',
    );
    expect([...auditReferences({ ...unit, oldValues: null, newValues: null })]).toEqual([
      ['defaultUnits', new Set([5])],
    ]);
  });

  it("names a user's department, facilities and roles, and whom a role was granted to", () => {
    const grants = [{ facilityId: 1, roleIds: [2, 4] }];
    const row = {
      ...user,
      oldValues: { departmentId: null, facilityRoles: [] },
      newValues: { departmentId: 3, facilityRoles: grants },
    };
    expect(namedLines({ ...row, oldValues: null })).toEqual([
      'Department: Quality',
      'Roles by facility: Facility: Site A, Roles: Administrator, Reviewer',
    ]);
    expect(namedLines(row)).toEqual([
      'Department: — → Quality',
      'Roles by facility: — → Facility: Site A, Roles: Administrator, Reviewer',
    ]);
    const refs = auditReferences(row);
    expect(refs.get('users')).toEqual(new Set([9]));
    expect(refs.get('departments')).toEqual(new Set([3]));
    expect(refs.get('facilities')).toEqual(new Set([1]));
    expect(refs.get('roles')).toEqual(new Set([2, 4]));
    const created = {
      domain: 'UserRole',
      entityId: '2',
      oldValues: null,
      newValues: { name: 'Administrator', grantedTo: 9, facility: 1 },
    };
    expect(namedLines(created)).toEqual([
      'Name: Administrator',
      'Granted to: Ada Lovelace',
      'Facility: Site A',
    ]);
  });

  it('reads permissions by their labels, never their ids', () => {
    const changed = auditFieldChanges(
      {
        domain: 'UserRole',
        entityId: '4',
        oldValues: { permissions: { 'Equipment.Delete': false, 'Product.Get': true } },
        newValues: { permissions: { 'Equipment.Delete': true, 'Product.Get': false } },
      },
      format,
    ).map((change) => auditChangeLine(change));
    expect(changed).toEqual([
      'Permissions: Delete equipment: No, See products: Yes → Delete equipment: Yes, See products: No',
    ]);
    const refused = auditFieldChanges(
      {
        domain: 'UserRole',
        entityId: '4',
        oldValues: null,
        newValues: { attempted: 'Update', missing: ['Equipment.Delete', 'ApprovalPolicy.Sign'] },
      },
      format,
    ).map((change) => auditChangeLine(change));
    expect(refused).toEqual(['Attempted: Update', 'Missing: Delete equipment, Approve records']);
  });
});

describe('labels', () => {
  it.each([
    ['minBatchSize', 'Min batch size'],
    ['externalID', 'External ID'],
    ['SOPNumber', 'SOP number'],
    ['ldd_mg', 'Ldd mg'],
    ['unit', 'Unit'],
  ])('%s reads as %s', (name, label) => expect(labelFromName(name)).toBe(label));

  it.each([
    ['SOP', 'SOP'],
    ['SOPs', 'SOPs'],
    ['MOC records', 'MOC records'],
    ['Analytical method', 'analytical method'],
    ['API', 'API'],
  ])('%s inside a sentence reads as %s', (label, lower) => expect(lowerLabel(label)).toBe(lower));
});
