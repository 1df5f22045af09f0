import type { EntityDef } from '../entity.ts';

/** A class of products (route, sterility) that a facility's risk rules and reports group by. */
export const productTypesDef = {
  key: 'productTypes',
  label: 'Product type',
  pluralLabel: 'Product types',
  path: 'product_types',
  table: 'product_types',
  resource: 'ProductType',
  domain: 'ProductType',
  description:
    'Product types: a class of products by route of administration and sterility (for example "Oral solid", "Sterile injectable"), with a short code. Parenteral and sterile types usually carry stricter limits and microbial requirements.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'code', label: 'Code', kind: 'text', max: 30 },
    {
      name: 'routeOfAdministration',
      label: 'Route of administration',
      kind: 'enum',
      options: [
        'Oral',
        'Parenteral',
        'Topical',
        'Inhalation',
        'Ophthalmic',
        'Nasal',
        'Rectal',
        'Vaginal',
        'Transdermal',
        'Other',
      ],
      description:
        'The route patients take the product by; the PDE of an active is route-specific.',
    },
    { name: 'isSterile', label: 'Sterile', kind: 'boolean' },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['name'],
  search: ['name', 'code'],
  listColumns: ['name', 'code', 'routeOfAdministration', 'isSterile'],
} as const satisfies EntityDef<string>;
