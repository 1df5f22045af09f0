import { formatNumber } from '#core/units/format-number.ts';
import type { ChartBar, ChartTone } from '#core/charts/bar-chart.ts';
import {
  EQUIPMENT_STATES,
  RELEASE_FLAGS,
  RELEASE_FLAG_LABELS,
  type TDashboard,
  type TEquipmentState,
} from '#core/schemas/dashboard.schemas.ts';

/** One bar of a tile's chart, with the list it opens. */
export interface Bar extends ChartBar {
  /** Where the records behind the bar are listed (with the list's filter in the URL), if any. */
  to?: string;
}

const STATE_TONES: Record<TEquipmentState, ChartTone> = {
  Validated: 'good',
  'On Going': 'neutral',
  Failed: 'bad',
  Overdue: 'warn',
  'Not covered': 'bad',
};

/**
 * Where each state's records are: the studies list filtered by outcome (Overdue: the Validated
 * studies past their periodic verification); the equipment no study covers are the gaps of the
 * latest cleaning assessment, whose page opens on its coverage matrix, or, before the first
 * assessment, the page that starts one.
 */
function stateLink(state: TEquipmentState, latestAssessmentId: number | null): string {
  switch (state) {
    case 'Validated':
      return '/studies?outcome=Validated';
    case 'On Going':
      return '/studies?outcome=On+Going';
    case 'Failed':
      return '/studies?outcome=Failed';
    case 'Overdue':
      return '/studies?overdue=true';
    case 'Not covered':
      return latestAssessmentId === null
        ? '/cleaning-assessments'
        : `/cleaning-assessments/${latestAssessmentId}`;
  }
}

export function equipmentBars(
  status: NonNullable<TDashboard['equipmentStatus']>,
  latestAssessmentId: number | null,
): Bar[] {
  return EQUIPMENT_STATES.map((state) => ({
    label: state,
    value: status.counts[state] ?? 0,
    tone: STATE_TONES[state],
    to: stateLink(state, latestAssessmentId),
  }));
}

export function releaseBars(flags: NonNullable<TDashboard['releaseFlags']>): Bar[] {
  const tones: Record<(typeof RELEASE_FLAGS)[number], ChartTone> = {
    CAN_BE_RELEASED: 'good',
    MAY_BE_RELEASED: 'warn',
    CAN_NOT_BE_RELEASED: 'bad',
  };
  return RELEASE_FLAGS.map((flag) => ({
    label: RELEASE_FLAG_LABELS[flag],
    value: flags.counts[flag] ?? 0,
    tone: tones[flag],
  }));
}

/** A first step a new facility takes, in the order the limits need them. */
export interface FirstStep {
  key: string;
  title: string;
  description: string;
  to: string;
}

/**
 * What a facility has not set up yet, in order: actives, products, equipment and productions
 * feed the limits; a cleaning assessment turns the limits into worst cases and studies. A step
 * the user may not read (null) is left out: they cannot act on it.
 */
export function firstSteps(setup: TDashboard['setup']): FirstStep[] {
  const steps: FirstStep[] = [];
  if (setup.actives === 0)
    steps.push({
      key: 'actives',
      title: 'Add the actives',
      description:
        'Each active with its PDE/ADE (or therapeutic dose and LD50): the limits start here.',
      to: '/master-data/apis',
    });
  if (setup.products === 0)
    steps.push({
      key: 'products',
      title: 'Add the products',
      description: 'Products with their actives, largest daily dose and minimum batch size.',
      to: '/master-data/products',
    });
  if (setup.equipment === 0)
    steps.push({
      key: 'equipment',
      title: 'Add the equipment',
      description: 'Product-contact equipment with its surface area.',
      to: '/master-data/equipments',
    });
  if (setup.productions === 0)
    steps.push({
      key: 'productions',
      title: 'Map products to equipment',
      description: 'Productions say which products are made on which equipment train.',
      to: '/master-data/productions',
    });
  if (setup.cleaningAssessments === 0)
    steps.push({
      key: 'assessment',
      title: 'Start a cleaning assessment',
      description:
        'It computes the limits and worst cases of the facility and proposes the studies to run.',
      to: '/cleaning-assessments',
    });
  return steps;
}

/** '3 records' / '1 record'. */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** A ratio of a limit to an LOQ as a reviewer reads it: '1.25 × LOQ'. */
export function timesLoq(ratio: number): string {
  return `${formatNumber(ratio, 3)} × LOQ`;
}
