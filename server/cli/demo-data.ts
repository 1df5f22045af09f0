/**
 * Realistic demo master data for one facility, generated deterministically: actives with their
 * toxicology, oral solid products that contain them, a plant of equipment and the productions
 * that tie them together.
 */
const ACTIVES: [name: string, pdeMg: number | null, tdMg: number, ld50: number | null][] = [
  ['Metformin hydrochloride', 10, 500, 1450],
  ['Amlodipine besylate', 0.05, 2.5, 37],
  ['Atorvastatin calcium', 0.2, 10, 5000],
  ['Lisinopril', 0.1, 2.5, 2000],
  ['Levothyroxine sodium', 0.0025, 0.025, 20],
  ['Omeprazole', 0.2, 10, 2210],
  ['Simvastatin', 0.1, 5, 3000],
  ['Losartan potassium', 0.5, 25, 2000],
  ['Sertraline hydrochloride', 0.5, 25, 1591],
  ['Warfarin sodium', 0.01, 1, 3],
  ['Paracetamol', 5, 325, 338],
  ['Ibuprofen', 2, 200, 636],
  ['Methotrexate', 0.0025, 2.5, 135],
  ['Prednisolone', 0.05, 5, 1680],
  ['Clopidogrel bisulfate', 0.75, 75, 2600],
  ['Gliclazide', 0.3, 30, 3000],
  ['Ramipril', 0.025, 1.25, 10000],
  ['Bisoprolol fumarate', 0.025, 1.25, 730],
  ['Tamoxifen citrate', 0.02, 10, 1190],
  ['Finasteride', 0.005, 1, 418],
  ['Cetirizine hydrochloride', 0.05, 5, 703],
  ['Montelukast sodium', 0.04, 4, 5000],
  ['Valsartan', 0.4, 40, 2000],
  ['Rosuvastatin calcium', 0.05, 5, 2000],
  ['Escitalopram oxalate', 0.05, 5, 200],
  ['Hydrochlorothiazide', 0.125, 12.5, 10000],
  ['Furosemide', 0.2, 20, 2600],
  ['Allopurinol', 1, 100, 214],
  ['Carvedilol', 0.03, 3.125, 8000],
  ['Donepezil hydrochloride', 0.025, 5, 32],
];

const EQUIPMENT_KINDS: [kind: string, minSqm: number, maxSqm: number][] = [
  ['High-shear granulator', 3, 9],
  ['Fluid bed dryer', 8, 20],
  ['Conical mill', 0.5, 1.5],
  ['Bin blender', 4, 12],
  ['Tablet press', 1.5, 4],
  ['Coating pan', 6, 15],
  ['Capsule filler', 1, 3],
  ['Vibratory sieve', 0.8, 2],
  ['Intermediate bulk container', 5, 10],
  ['Transfer hopper', 1, 3],
];

const MATERIALS = [
  'Stainless steel 316L',
  'Stainless steel 316L',
  'Stainless steel 304',
  'PTFE',
  'Glass',
];

/** A small deterministic generator, so the demo facility is the same on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

export interface DemoData {
  actives: Record<string, unknown>[];
  products: (Record<string, unknown> & { activeNames: string[] })[];
  equipment: Record<string, unknown>[];
  productions: { name: string; equipmentNames: string[]; productNames: string[] }[];
  cleaningAgents: Record<string, unknown>[];
  analyticalMethods: Record<string, unknown>[];
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

export function demoData(counts = { products: 48, equipment: 84, productions: 8 }): DemoData {
  const next = random(20_261_122);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;

  const actives = ACTIVES.map(([name, pde, td, ld50], i) => ({
    name,
    externalId: `API-${String(i + 1).padStart(3, '0')}`,
    ...(pde === null
      ? {}
      : {
          pde: { value: pde, unit: 'mg' },
          pdeBasis: 'PDE',
          pdeSource: `Toxicological assessment TA-${1000 + i}`,
        }),
    therapeuticDose: { value: td, unit: 'mg' },
    ...(ld50 === null ? {} : { ld50: { value: ld50, unit: 'mg/kg' } }),
    solubility: pick([
      'Freely soluble',
      'Soluble',
      'Sparingly soluble',
      'Slightly soluble',
      'Practically insoluble',
    ]),
    cleanability: pick(['Easy', 'Moderate', 'Difficult']),
    potencyBand:
      pde !== null && pde < 0.01 ? 'OEB 4' : pde !== null && pde < 0.1 ? 'OEB 3' : 'OEB 2',
  }));

  const products = Array.from({ length: counts.products }, (_, i) => {
    const [activeName, , td] = ACTIVES[i % ACTIVES.length]!;
    const combo = i % 7 === 3 ? ACTIVES[(i * 5 + 3) % ACTIVES.length]! : null;
    // A second round over the actives makes higher strengths, so names stay unique.
    const strength = round(td * (1 + Math.floor(i / ACTIVES.length)), 3);
    const form = i % 5 === 4 ? 'Capsule' : 'Tablet';
    const unitWeightMg = Math.max(100, round(strength * 2 + 80 + next() * 300, 0));
    const batchKg = round(50 + next() * 350, 0);
    return {
      name: `${activeName.split(' ')[0]} ${strength} mg ${form.toLowerCase()}s${combo ? ` + ${combo[0].split(' ')[0]}` : ''}`,
      externalId: `PRD-${String(i + 1).padStart(4, '0')}`,
      dosageForm: form,
      strength: { value: strength, unit: 'mg' },
      maxDailyDose: {
        value: round(strength * (1 + (i % 4)), 3) * (unitWeightMg / strength),
        unit: 'mg',
      },
      minBatchSize: { value: batchKg, unit: 'kg' },
      unitWeight: { value: unitWeightMg, unit: 'mg' },
      activeNames: combo ? [activeName, combo[0]] : [activeName],
    };
  });

  const equipment = Array.from({ length: counts.equipment }, (_, i) => {
    const [kind, min, max] = EQUIPMENT_KINDS[i % EQUIPMENT_KINDS.length]!;
    return {
      name: `${kind} ${String(Math.floor(i / EQUIPMENT_KINDS.length) + 1).padStart(2, '0')}`,
      externalId: `EQ-${String(i + 1).padStart(4, '0')}`,
      surfaceArea: { value: round(min + next() * (max - min)), unit: 'sqm' },
      material: pick(MATERIALS),
      roomGrade: pick(['C', 'D', 'D']),
    };
  });

  // Each line takes one item of most kinds; products run on one or two lines.
  const productions = Array.from({ length: counts.productions }, (_, line) => {
    const equipmentNames = equipment
      .filter(
        (_, i) =>
          Math.floor(i / EQUIPMENT_KINDS.length) % counts.productions === line || next() < 0.04,
      )
      .map((e) => e.name as string);
    const productNames = products
      .filter(
        (_, i) => i % counts.productions === line || (i + 3) % (counts.productions * 2) === line,
      )
      .map((p) => p.name);
    return { name: `Line ${line + 1}`, equipmentNames, productNames };
  });

  const cleaningAgents = [
    {
      name: 'CIP 100 alkaline detergent',
      manufacturer: 'STERIS',
      ld50: { value: 2000, unit: 'mg/kg' },
      ppmCeiling: 10,
    },
    {
      name: 'CIP 200 acid detergent',
      manufacturer: 'STERIS',
      ld50: { value: 3500, unit: 'mg/kg' },
      ppmCeiling: 10,
    },
    { name: 'Purified water', manufacturer: 'In-house' },
    { name: 'Isopropyl alcohol 70%', manufacturer: 'Merck', ld50: { value: 5045, unit: 'mg/kg' } },
  ];
  const analyticalMethods = [
    {
      name: 'TOC swab method',
      methodNumber: 'AM-TOC-01',
      testType: 'TOC',
      lod: { value: 0.05, unit: 'ppm' },
      loq: { value: 0.15, unit: 'ppm' },
      recoveries: [
        { material: 'Stainless steel 316L', recoveryPercentage: 87 },
        { material: 'PTFE', recoveryPercentage: 78 },
      ],
    },
    { name: 'Conductivity rinse method', methodNumber: 'AM-CON-01', testType: 'Conductivity' },
    { name: 'pH rinse method', methodNumber: 'AM-PH-01', testType: 'pH' },
  ];
  return { actives, products, equipment, productions, cleaningAgents, analyticalMethods };
}
