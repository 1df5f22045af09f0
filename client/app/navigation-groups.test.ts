import { describe, expect, it } from 'vitest';
import { groupNavigation } from './navigation-groups.ts';

describe('groupNavigation', () => {
  it('puts each entry in its section, keeps order, and leaves unknown areas at the top', () => {
    const sections = groupNavigation([
      { path: '/', label: 'Home' },
      { path: '/users', label: 'Users' },
      { path: '/master-data', label: 'Master data' },
      { path: '/limits/mac-matrix', label: 'MAC matrix' },
      { path: '/master-data/productions-matrix', label: 'Production matrix' },
      { path: '/roles', label: 'Roles' },
      { path: '/dashboard', label: 'Dashboard' },
    ]);
    expect(sections.map((s) => [s.label, s.entries.map((e) => e.label)])).toEqual([
      [null, ['Home', 'Dashboard']],
      ['Master data', ['Master data', 'Production matrix']],
      ['Limits and risk', ['MAC matrix']],
      ['Administration', ['Users', 'Roles']],
    ]);
  });

  it('puts protocols, studies and runs in the validation section', () => {
    const sections = groupNavigation([
      { path: '/protocols', label: 'Protocols' },
      { path: '/studies', label: 'Studies' },
      { path: '/runs/3', label: 'Run' },
    ]);
    expect(sections).toEqual([
      {
        label: 'Validation',
        entries: [
          { path: '/protocols', label: 'Protocols' },
          { path: '/studies', label: 'Studies' },
          { path: '/runs/3', label: 'Run' },
        ],
      },
    ]);
  });

  it('leaves out sections with nothing visible', () => {
    expect(groupNavigation([{ path: '/', label: 'Home' }])).toEqual([
      { label: null, entries: [{ path: '/', label: 'Home' }] },
    ]);
  });
});
