import { Button, Input, InputNumber, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import type { WhatIfEdit } from '#core/limits/limits.what-if.ts';
import { formatQuantity } from '#core/units/format-number.ts';
import type { AmountQuantity, LimitsInput } from '#core/limits/model.ts';
import type { Quantity, QuantityOf } from '#core/units/quantity.ts';
import { unitsOfKind } from '#core/units/units.ts';
import type { TDefaultUnit } from '#core/schemas/settings.schemas.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { useDefaultUnits } from '#client/shared/settings/settings-api.ts';
import { whatIfDefaultUnit } from './what-if-units.ts';

/** Archiving is tried from the archive dialog, not from this form. */
type Kind = Exclude<WhatIfEdit['kind'], 'archiveActive' | 'archiveEquipment' | 'archiveProduct'>;

const KINDS: { value: Kind; label: string }[] = [
  { value: 'minBatchSize', label: 'Minimum batch size of a product' },
  { value: 'maxDailyDose', label: 'Largest daily dose of a product' },
  { value: 'pde', label: 'PDE of an active' },
  { value: 'surfaceArea', label: 'Surface area of an equipment item' },
  { value: 'addProduct', label: 'Add a product' },
];

const AMOUNT_UNITS = [
  ...unitsOfKind('mass'),
  ...unitsOfKind('volume'),
  ...unitsOfKind('count'),
] as string[];
const UNITS_OF: Record<Exclude<Kind, 'addProduct'>, string[]> = {
  minBatchSize: AMOUNT_UNITS,
  maxDailyDose: AMOUNT_UNITS,
  pde: unitsOfKind('mass'),
  surfaceArea: unitsOfKind('area'),
};

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** The actives of the input, each once, with its PDE as the input has it. */
function activesOf(input: LimitsInput): { id: string; pde: Quantity<string> | undefined }[] {
  const seen = new Map<string, Quantity<string> | undefined>();
  for (const product of input.products) {
    for (const active of product.actives) if (!seen.has(active.id)) seen.set(active.id, active.pde);
  }
  return [...seen].map(([id, pde]) => ({ id, pde })).sort((a, b) => a.id.localeCompare(b.id));
}

/** The items a kind of change applies to, and each one's current value. */
function targetsOf(input: LimitsInput, kind: Exclude<Kind, 'addProduct'>) {
  switch (kind) {
    case 'pde':
      return activesOf(input).map((a) => ({ id: a.id, current: a.pde }));
    case 'surfaceArea':
      return input.equipment.map((e) => ({ id: e.id, current: e.surfaceArea as Quantity<string> }));
    case 'minBatchSize':
    case 'maxDailyDose':
      return input.products.map((p) => ({ id: p.id, current: p[kind] as Quantity<string> }));
  }
}

interface Props {
  input: LimitsInput;
  onAdd: (edit: WhatIfEdit) => void;
}

/** The facility's default units, where the user may read them (else the measures' defaults). */
function useFacilityDefaultUnits(): readonly TDefaultUnit[] | undefined {
  const permissions = usePermissions();
  return useDefaultUnits(permissions.isKnown && permissions.can('DefaultUnit', 'Get')).data;
}

/** Builds one change to try: a value of an existing record, or a new product. */
export function WhatIfEditForm({ input, onAdd }: Props) {
  const [kind, setKind] = useState<Kind>('minBatchSize');
  const defaults = useFacilityDefaultUnits();
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Select
        aria-label="Change"
        value={kind}
        options={KINDS}
        onChange={setKind}
        style={{ width: 320 }}
      />
      {kind === 'addProduct' ? (
        <NewProductForm input={input} onAdd={onAdd} defaults={defaults} />
      ) : (
        // Keyed by kind: the chosen item and value belong to one kind of change.
        <ValueForm key={kind} input={input} kind={kind} onAdd={onAdd} defaults={defaults} />
      )}
    </Space>
  );
}

type Defaults = { defaults: readonly TDefaultUnit[] | undefined };

function ValueForm({
  input,
  kind,
  onAdd,
  defaults,
}: Props & Defaults & { kind: Exclude<Kind, 'addProduct'> }) {
  const targets = targetsOf(input, kind);
  const [target, setTarget] = useState<string | null>(null);
  const [value, setValue] = useState<number | null>(null);
  // Null until chosen: the facility's default unit for the quantity, once it has loaded.
  const [chosenUnit, setUnit] = useState<string | null>(null);
  const unit = chosenUnit ?? whatIfDefaultUnit(kind, UNITS_OF[kind], defaults);
  const current = targets.find((t) => t.id === target)?.current;

  const choose = (id: string) => {
    setTarget(id);
    const now = targets.find((t) => t.id === id)?.current;
    // Start from the value as it is, in its own unit, so halving it is one edit.
    setValue(now?.value ?? null);
    if (now) setUnit(now.unit);
  };

  const add = () => {
    if (target === null || value === null || !(value > 0)) return;
    const quantity = { value, unit };
    switch (kind) {
      case 'pde':
        onAdd({ kind, active: target, value: quantity as QuantityOf<'mass'> });
        break;
      case 'surfaceArea':
        onAdd({ kind, equipment: target, value: quantity as QuantityOf<'area'> });
        break;
      case 'minBatchSize':
      case 'maxDailyDose':
        onAdd({ kind, product: target, value: quantity as AmountQuantity });
        break;
    }
  };

  return (
    <Space wrap align="start">
      <Select
        aria-label="Item"
        showSearch
        placeholder="Choose…"
        value={target}
        onChange={choose}
        options={options(targets.map((t) => t.id))}
        style={{ width: 280 }}
      />
      <Space.Compact>
        <InputNumber
          aria-label="New value"
          min={0}
          value={value}
          onChange={(v) => setValue(typeof v === 'number' ? v : null)}
          style={{ width: 160 }}
        />
        <Select
          aria-label="Unit"
          value={unit}
          onChange={setUnit}
          options={options(UNITS_OF[kind])}
          style={{ width: 100 }}
        />
      </Space.Compact>
      <Button onClick={add} disabled={target === null || value === null || !(value > 0)}>
        Try this change
      </Button>
      {current ? (
        <Typography.Text type="secondary">
          Now: {formatQuantity(current.value, current.unit, 15)}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

function NewProductForm({ input, onAdd, defaults }: Props & Defaults) {
  const [name, setName] = useState('');
  const [active, setActive] = useState<string | null>(null);
  const [batch, setBatch] = useState<number | null>(null);
  const [chosenBatchUnit, setBatchUnit] = useState<string | null>(null);
  const batchUnit =
    chosenBatchUnit ?? whatIfDefaultUnit('minBatchSize', UNITS_OF.minBatchSize, defaults);
  const [dose, setDose] = useState<number | null>(null);
  const [chosenDoseUnit, setDoseUnit] = useState<string | null>(null);
  const doseUnit =
    chosenDoseUnit ?? whatIfDefaultUnit('maxDailyDose', UNITS_OF.maxDailyDose, defaults);
  const [equipment, setEquipment] = useState<string[]>([]);
  const trimmed = name.trim();
  const taken = input.products.some((p) => p.id === trimmed);
  const ready =
    trimmed !== '' &&
    !taken &&
    active !== null &&
    batch !== null &&
    batch > 0 &&
    dose !== null &&
    dose > 0 &&
    equipment.length > 0;

  const add = () => {
    if (!ready) return;
    onAdd({
      kind: 'addProduct',
      product: trimmed,
      active,
      minBatchSize: { value: batch, unit: batchUnit } as AmountQuantity,
      maxDailyDose: { value: dose, unit: doseUnit } as AmountQuantity,
      equipment,
    });
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Input
          aria-label="Product name"
          placeholder="Product name"
          value={name}
          status={taken ? 'error' : ''}
          onChange={(e) => setName(e.target.value)}
          style={{ width: 220 }}
        />
        <Select
          aria-label="Active"
          showSearch
          placeholder="Active"
          value={active}
          onChange={setActive}
          options={options(activesOf(input).map((a) => a.id))}
          style={{ width: 240 }}
        />
      </Space>
      <Space wrap>
        <Space.Compact>
          <InputNumber
            aria-label="Minimum batch size"
            placeholder="Minimum batch size"
            min={0}
            value={batch}
            onChange={(v) => setBatch(typeof v === 'number' ? v : null)}
            style={{ width: 170 }}
          />
          <Select
            aria-label="Batch size unit"
            value={batchUnit}
            onChange={setBatchUnit}
            options={options(AMOUNT_UNITS)}
            style={{ width: 90 }}
          />
        </Space.Compact>
        <Space.Compact>
          <InputNumber
            aria-label="Largest daily dose"
            placeholder="Largest daily dose"
            min={0}
            value={dose}
            onChange={(v) => setDose(typeof v === 'number' ? v : null)}
            style={{ width: 170 }}
          />
          <Select
            aria-label="Daily dose unit"
            value={doseUnit}
            onChange={setDoseUnit}
            options={options(AMOUNT_UNITS)}
            style={{ width: 90 }}
          />
        </Space.Compact>
      </Space>
      <Select
        aria-label="Equipment it runs on"
        mode="multiple"
        placeholder="Equipment it runs on"
        value={equipment}
        onChange={setEquipment}
        options={options(input.equipment.map((e) => e.id))}
        style={{ width: '100%' }}
      />
      <Button onClick={add} disabled={!ready}>
        Try this change
      </Button>
      {taken ? (
        <Typography.Text type="danger">A product of this name exists.</Typography.Text>
      ) : null}
    </Space>
  );
}
