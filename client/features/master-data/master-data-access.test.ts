import { describe, expect, it } from 'vitest';
import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';
import { canSeeLimits } from '#client/shared/limits/limits-access.ts';
import { ENTITY_DEFS } from '#core/entities/defs/index.ts';
import { actionOf } from '#core/entities/entity.ts';
import {
  canSeeMasterData,
  canUseMasterWorkbook,
  MASTER_DATA_RESOURCES,
} from './master-data-access.ts';

const withFacility = (facility: TMyPermissions['facility']): TMyPermissions => ({
  facility,
  plan: {},
  isRestricted: false,
});

describe('navigation access', () => {
  it('shows master data when any declared entity may be listed', () => {
    expect(canSeeMasterData(withFacility({ Equipment: { Get: true } }))).toBe(true);
    expect(canSeeMasterData(withFacility({ Equipment: { Get: false, Add: true } }))).toBe(false);
    expect(canSeeMasterData(withFacility({ AuditLog: { Get: true } }))).toBe(false);
  });

  it('shows the MAC matrix with RiskCalculation Get', () => {
    expect(canSeeLimits(withFacility({ RiskCalculation: { Get: true } }))).toBe(true);
    expect(canSeeLimits(withFacility({ Product: { Get: true } }))).toBe(false);
  });

  it('knows the resource of every declared entity, listed by Get', () => {
    for (const def of ENTITY_DEFS) {
      expect(MASTER_DATA_RESOURCES, def.key).toContain(def.resource);
      expect(actionOf(def, 'get'), def.key).toBe('Get');
    }
  });
});

describe('workbook access', () => {
  it('shows master data and the workbook page with Master BulkExport or BulkImport', () => {
    expect(canUseMasterWorkbook(withFacility({ Master: { BulkExport: true } }))).toBe(true);
    expect(canUseMasterWorkbook(withFacility({ Master: { BulkImport: true } }))).toBe(true);
    expect(canUseMasterWorkbook(withFacility({ Master: { Get: true } }))).toBe(false);
    expect(canSeeMasterData(withFacility({ Master: { BulkImport: true } }))).toBe(true);
  });
});
