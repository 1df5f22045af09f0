import { Tag } from 'antd';
import type { TStudyOutcome } from '#core/schemas/verification.schemas.ts';
import { OUTCOME_COLOURS } from './study-format.ts';

/** A study's validation outcome (spec §4): Validated, On Going or Failed. */
export function StudyOutcomeTag({ outcome }: { outcome: TStudyOutcome }) {
  return (
    <Tag color={OUTCOME_COLOURS[outcome]} data-testid="study-outcome">
      {outcome}
    </Tag>
  );
}
