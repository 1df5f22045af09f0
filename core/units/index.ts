export * from './units.ts';
export * from './quantity.ts';
export * from './measures.ts';
