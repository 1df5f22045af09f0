import { Collapse, Drawer, Typography } from 'antd';
import type { Derivation } from '#core/limits/derivation.ts';
import type { PairExplanation } from '#core/limits/explain.ts';
import { DerivationSteps, OneDerivation } from '#client/shared/limits/OneDerivation.tsx';
import { areaLabel, criterionLabel } from './pair-explanation.ts';

export interface DerivationSection {
  key: string;
  label: string;
  derivation: Derivation;
}

/** What a drawer shows: the number opened first, then what it was built from. */
export interface OpenDerivation {
  title: string;
  subtitle?: string;
  sections: DerivationSection[];
}

/** A derivation drawer: formula, inputs with units and sources, steps and result. */
export function DerivationDrawer({
  open,
  onClose,
}: {
  open: OpenDerivation | null;
  onClose: () => void;
}) {
  return (
    <Drawer
      open={open !== null}
      size={680}
      onClose={onClose}
      title={open?.title ?? ''}
      destroyOnHidden
    >
      {open ? (
        <>
          {open.subtitle ? (
            <Typography.Paragraph type="secondary">{open.subtitle}</Typography.Paragraph>
          ) : null}
          <Collapse
            size="small"
            defaultActiveKey={open.sections[0]?.key}
            items={open.sections.map((s) => ({
              key: s.key,
              label: s.label,
              children: (
                <>
                  <OneDerivation derivation={s.derivation} />
                  <DerivationSteps steps={s.derivation.steps} />
                </>
              ),
            }))}
          />
        </>
      ) : null}
    </Drawer>
  );
}

const PAIR_NUMBERS = {
  maco: 'MACO (governing)',
  sal: 'SAL',
  swab: 'Swab limit',
  rinse: 'Rinse limit',
} as const;

/** One limit of a pair opened with its derivation, then the derivations behind it. */
export function pairDerivation(
  explanation: PairExplanation,
  limit: keyof typeof PAIR_NUMBERS,
): OpenDerivation {
  const own = {
    maco: explanation.maco,
    sal: explanation.sal,
    swab: explanation.swabLimit,
    rinse: explanation.rinseLimit,
  }[limit];
  const sections: DerivationSection[] = [];
  if (own) sections.push({ key: limit, label: PAIR_NUMBERS[limit], derivation: own });
  if (limit !== 'maco') sections.push({ key: 'maco', label: 'MACO', derivation: explanation.maco });
  for (const [key, d] of Object.entries(explanation.criteria)) {
    if (d.result !== null) sections.push({ key, label: criterionLabel(key), derivation: d });
  }
  sections.push({ key: 'area', label: areaLabel(explanation.area), derivation: explanation.area });
  if (limit !== 'sal') sections.push({ key: 'sal', label: 'SAL', derivation: explanation.sal });
  return {
    title: `${PAIR_NUMBERS[limit]}: ${explanation.previous} → ${explanation.next}`,
    subtitle: `Shared equipment: ${explanation.sharedEquipment.join(', ')}`,
    sections,
  };
}
