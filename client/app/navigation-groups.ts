/**
 * Sections of the side menu, by the first segment of an entry's path. Areas added later land in
 * their section without touching this table when their path starts like their neighbours'.
 */
const SECTIONS: readonly { label: string; prefixes: readonly string[] }[] = [
  {
    label: 'Master data',
    prefixes: ['/master-data', '/room-grades', '/productions', '/equipment'],
  },
  {
    label: 'Limits and risk',
    prefixes: ['/limits', '/policies', '/worst-case', '/cleaning-assessments'],
  },
  {
    label: 'Validation',
    prefixes: ['/protocols', '/studies', '/runs', '/verification', '/equipment-status'],
  },
  {
    label: 'Administration',
    prefixes: [
      '/users',
      '/roles',
      '/departments',
      '/operators',
      '/facilities',
      '/facility-groups',
      '/settings',
      '/mail-outbox',
      '/webhooks',
      '/feedback',
    ],
  },
  {
    label: 'Compliance',
    prefixes: ['/change-control', '/reports', '/my-approvals', '/audit-log'],
  },
];

export interface NavEntry {
  path: string;
  label: string;
}

export interface NavSection {
  /** Null for entries that stand on their own, such as Home. */
  label: string | null;
  entries: NavEntry[];
}

function sectionOf(path: string): string | null {
  const first = `/${path.split('/')[1] ?? ''}`;
  return SECTIONS.find((s) => s.prefixes.includes(first))?.label ?? null;
}

/** Groups entries into the sections above, keeping their order within each section. */
export function groupNavigation(entries: readonly NavEntry[]): NavSection[] {
  const loose: NavEntry[] = entries.filter((e) => sectionOf(e.path) === null);
  const sections = SECTIONS.map((s) => ({
    label: s.label,
    entries: entries.filter((e) => sectionOf(e.path) === s.label),
  })).filter((s) => s.entries.length > 0);
  return [{ label: null, entries: loose }, ...sections].filter((s) => s.entries.length > 0);
}
