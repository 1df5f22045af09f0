import { Descriptions } from 'antd';
import { DerivationSteps, OneDerivation } from '#client/shared/limits/OneDerivation.tsx';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import type { HbelVersion } from './hbel-library-api.ts';

/**
 * A monograph's PDE as its derivation gives it (EMA HBEL guideline §4.1), shown as every limit's
 * derivation is: each input with the unit it was given in and the one the formula uses, each step,
 * and the result, for a reviewer to redo by hand.
 */
export function MonographDerivation({ version }: { version: HbelVersion }) {
  const numbers = useNumberFormat();
  const pod = version.monograph.pointOfDeparture;
  return (
    <>
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'pde', label: 'PDE', children: numbers.quantityOf(version.pde) || '—' },
          {
            key: 'study',
            label: 'Point of departure',
            children: `${pod.type} in ${pod.species} (${pod.route}): ${pod.studyReference}`,
          },
        ]}
      />
      <OneDerivation derivation={version.derivation} />
      <DerivationSteps steps={version.derivation.steps} />
    </>
  );
}
