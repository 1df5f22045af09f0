import { describe, expect, it } from 'vitest';
import { activesDef, equipmentDef, protocolsDef } from '#core/entities/defs/index.ts';
import { hasRecordPage, namedRecordPath, recordPagePath, usingRecordPath } from './record-pages.ts';

describe('record pages', () => {
  it('are the master-data path and the id, or the name for a derivation’s inputs', () => {
    expect(recordPagePath(activesDef, 7)).toBe('/master-data/apis/7');
    expect(namedRecordPath(equipmentDef, 'Mixer 1/A')).toBe(
      '/master-data/equipments/named/Mixer%201%2FA',
    );
    expect(hasRecordPage(protocolsDef)).toBe(false);
  });

  it('open a record that uses another on its page, its equipment’s, or its screen', () => {
    expect(usingRecordPath('products', { id: 3, name: 'Tab A' })).toBe('/master-data/products/3');
    expect(usingRecordPath('samples', { id: 9, name: 'S-1', equipmentId: 4 })).toBe(
      '/master-data/equipments/4',
    );
    expect(usingRecordPath('protocols', { id: 5, name: 'P-1' })).toBe('/protocols?record=5');
    expect(usingRecordPath('cleaningProcedures', { id: 2, name: 'CIP 1' })).toBeNull();
  });
});
